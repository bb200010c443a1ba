import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ActionIcon, Alert, Button, Group, Menu, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconAlertCircle,
  IconArrowBackUp,
  IconCalendar,
  IconChevronLeft,
  IconChevronRight,
  IconDeviceFloppy,
  IconChecks,
  IconListCheck,
  IconReplace,
} from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { EmptyState } from '@/components/EmptyState';
import { PageHeader } from '@/components/PageHeader';
import { PendingExcuses } from '@/features/portal/components/PendingExcuses';
import { PageLoader } from '@/components/PageLoader';
import { ViewOnlyNotice } from '@/components/ViewOnly';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { useClasses } from '@/features/students/hooks';
import { useFormatDate } from '@/lib/useFormatDate';
import { useFormatNumber } from '@/lib/numbers';
import { AttendanceGrid } from '../components/AttendanceGrid';
import { LeaveGuard } from '../components/LeaveGuard';
import { JournalConflicts } from '../components/JournalConflicts';
import { Legend } from '../components/Legend';
import { SaveConfirm, letterLine } from '../components/SaveConfirm';
import { StatusPicker } from '../components/StatusPicker';
import { SummaryLine } from '../components/SummaryLine';
import type { StudentConflicts } from '../conflicts';
import { applyBulk, dirtyCount, dropSaved, keyOfEntryField, setCells, storedCells, summarize, toEntries, type BulkScope, type Draft } from '../grid';
import { isISODate, shiftDay, todayISO } from '../days';
import { useAttendanceForm, usePreviewAttendance, useResolveJournalConflicts, useSaveAttendance } from '../hooks';
import { paths } from '../paths';
import {
  BELUM,
  STATUSES,
  type AttendanceEntry,
  type AttendanceForm,
  type AttendancePreview,
  type AttendanceResult,
  type CellStatus,
  type ConflictAction,
  type SaveAttendanceResponse,
} from '../types';
import '@/app/pageStyles';

const LAST_CLASS = 'tatib.attendance.class';

/** "12 jam disimpan, 3 tidak berubah, 2 pelanggaran otomatis dibuat": only the counts that are not 0. */
function resultText(r: AttendanceResult, t: (k: string, o: { count: number; n: string }) => string, num: (n: number) => string, withLetterCounts: boolean): string {
  const parts: [string, number][] = [
    ['saved', r.created + r.updated],
    ['unchanged', r.unchanged],
    ['violationsCreated', r.violations_created],
    ['violationsUpdated', r.violations_updated],
    ['violationsRemoved', r.violations_removed],
    ['violationsKept', r.violations_kept],
  ];
  if (withLetterCounts) parts.push(['lettersIssued', r.letters_issued], ['lettersWithdrawn', r.letters_withdrawn ?? 0]);
  return parts
    .filter(([k, n]) => n > 0 || k === 'saved')
    .map(([k, n]) => t(`result.${k}`, { count: n, n: num(n) }))
    .join(', ');
}

/** The letters a save issued or withdrew, by name, one line each under the counts. */
function SaveResult({ res, text }: { res: SaveAttendanceResponse; text: string }) {
  const { t } = useTranslation('attendance');
  const letters = res.letters ?? [];
  return (
    <Stack gap={2}>
      <Text size="sm">{text}</Text>
      {letters.map((l) => (
        <Text key={`${l.student_id}-${l.level}-${l.change}`} size="sm" fw={600} data-testid="result-letter">
          {letterLine(l, t)}
        </Text>
      ))}
    </Stack>
  );
}

/** The save is refused until the caller confirms changing what others set. */
const isConfirmRequired = (err: unknown) => isApiError(err) && err.status === 409 && err.messageCode === 'attendance.confirm_required';

/** The loaded form with its local draft; remounted per class and date so a draft never leaks. */
function FormBody({ form, editable }: { form: AttendanceForm; editable: boolean }) {
  const { t } = useTranslation('attendance');
  const { t: tc } = useTranslation();
  const { me } = useSession();
  const num = useFormatNumber();
  const save = useSaveAttendance(form.class_id, form.date);
  const preview = usePreviewAttendance(form.class_id, form.date);
  const resolve = useResolveJournalConflicts(form.class_id, form.date);
  const stored = useMemo(() => storedCells(form), [form]);
  const [draft, setDraft] = useState<Draft>({});
  const [saveError, setSaveError] = useState<{ message: string; details: string[]; keys: Set<string> } | null>(null);
  // A save waiting for the teacher to confirm what it changes of others' entries.
  const [confirming, setConfirming] = useState<{ entries: AttendanceEntry[]; preview: AttendancePreview } | null>(null);
  const [overwriteOpen, setOverwriteOpen] = useState(false);
  const [resolving, setResolving] = useState<number | null>(null);
  const summary = useMemo(() => summarize(form, stored, draft), [form, stored, draft]);
  const dirty = dirtyCount(draft);
  const narrow = !!useMediaQuery('(max-width: 48em)');

  const setCell = (key: string, status: CellStatus) => setDraft((d) => setCells(d, stored, [key], status));
  const bulk = (scope: BulkScope, status: CellStatus, overwrite: boolean) => setDraft((d) => applyBulk(d, stored, form, scope, status, overwrite));

  const showResult = (res: SaveAttendanceResponse) => {
    const letters = res.letters ?? [];
    notifications.show({
      color: 'teal',
      title: t('result.title'),
      message: <SaveResult res={res} text={resultText(res.results, t, num, letters.length === 0)} />,
      withBorder: true,
      // Letters issued or withdrawn matter to others: the note stays until read.
      autoClose: letters.length > 0 ? false : 8000,
      className: 'attendance-save-result',
    });
  };

  const showError = (err: unknown, entries: AttendanceEntry[]) => {
    const keys = new Set<string>();
    const details: string[] = [];
    if (isApiError(err)) {
      for (const [field, text] of Object.entries(err.fields)) {
        const key = keyOfEntryField(field, entries);
        if (key) keys.add(key);
        const e = key ? entries[Number(/\d+/.exec(field)?.[0])] : undefined;
        const who = e ? form.students.find((s) => s.id === e.student_id)?.full_name : undefined;
        details.push(who && e ? `${who} · ${t('grid.hour', { hour: e.lesson_hour })}: ${text}` : text);
      }
    }
    setSaveError({ message: errorMessage(err, tc), details, keys });
  };

  /** Stores `entries`; a 409 confirm_required (someone else's entry changed since the preview) shows the preview. */
  const store = async (entries: AttendanceEntry[], confirm: boolean) => {
    try {
      const res = await save.mutateAsync({ entries, confirm });
      setConfirming(null);
      setDraft((d) => dropSaved(d, entries));
      showResult(res);
    } catch (err) {
      if (!confirm && isConfirmRequired(err)) {
        try {
          setConfirming({ entries, preview: await preview.mutateAsync(entries) });
        } catch (err2) {
          showError(err2, entries);
        }
        return;
      }
      setConfirming(null);
      showError(err, entries);
    }
  };

  // Every save is previewed first: when it changes what the journal, a kiosk or another person
  // set, the teacher sees what will change (cells, violations, letters) and confirms.
  const submit = async () => {
    const entries: AttendanceEntry[] = toEntries(form, draft);
    if (entries.length === 0) return;
    setSaveError(null);
    let p: AttendancePreview;
    try {
      p = await preview.mutateAsync(entries);
    } catch (err) {
      showError(err, entries);
      return;
    }
    if (p.needs_confirmation) setConfirming({ entries, preview: p });
    else await store(entries, false);
  };

  const answerConflicts = async (st: StudentConflicts, action: ConflictAction) => {
    setResolving(st.studentId);
    try {
      const res = await resolve.mutateAsync({ action, cells: st.cells });
      if (action === 'use_journal') showResult(res);
      else notifySuccess(t('conflicts.kept', { name: st.name }));
    } catch (err) {
      notifications.show({ color: 'red', title: t('conflicts.failed'), message: errorMessage(err, tc), withBorder: true });
    } finally {
      setResolving(null);
    }
  };

  return (
    <Stack gap="sm">
      <LeaveGuard dirty={dirty > 0} />
      {!editable && (
        <Group gap="sm">
          <ViewOnlyNotice />
        </Group>
      )}
      <JournalConflicts form={form} myName={me?.user.name ?? ''} editable={editable} busy={resolving} onResolve={(st, a) => void answerConflicts(st, a)} />
      <SummaryLine summary={summary} total={form.students.length} />
      {editable && form.students.length > 0 && (
        <Group gap="xs" wrap="wrap" data-testid="bulk-bar">
          <Button
            size="sm"
            variant="light"
            leftSection={<IconChecks size={18} aria-hidden />}
            onClick={() => bulk({ kind: 'class' }, 'H', false)}
            data-testid="bulk-empty-present"
          >
            {t('bulk.emptyPresent')}
          </Button>
          <Menu position="bottom-start" shadow="md" withinPortal>
            <Menu.Target>
              <Button size="sm" variant="default" leftSection={<IconListCheck size={18} aria-hidden />} data-testid="bulk-class">
                {t('bulk.classMenu')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('bulk.classEmptyTitle')}</Menu.Label>
              {STATUSES.map((s) => (
                <Menu.Item key={s} onClick={() => bulk({ kind: 'class' }, s, false)} data-testid={`bulk-class-${s}`}>
                  {t('bulk.allTo', { status: t(`status.${s}`), letter: s })}
                </Menu.Item>
              ))}
              <Menu.Divider />
              <Menu.Item leftSection={<IconReplace size={16} aria-hidden />} onClick={() => setOverwriteOpen(true)} data-testid="bulk-class-overwrite">
                {t('bulk.overwriteClass')}
              </Menu.Item>
              <Menu.Item onClick={() => bulk({ kind: 'class' }, BELUM, false)} disabled={dirty === 0} data-testid="bulk-class-belum">
                {t('bulk.discardAll')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Text size="xs" c="dimmed" maw={420}>
            {t('bulk.hint')}
          </Text>
        </Group>
      )}
      {form.students.length === 0 ? (
        <EmptyState message={t('noStudents')} testId="attendance-empty" />
      ) : (
        <AttendanceGrid form={form} stored={stored} draft={draft} editable={editable} errorKeys={saveError?.keys ?? new Set()} onSetCell={setCell} onBulk={bulk} />
      )}
      <Legend />
      {editable && (
        <Paper
          withBorder
          shadow="md"
          p="xs"
          radius="md"
          style={{ position: 'sticky', bottom: 8, zIndex: 5 }}
          data-testid="save-bar"
        >
          {saveError && (
            <Alert color="red" p="xs" mb="xs" icon={<IconAlertCircle size={18} aria-hidden />} title={t('saveFailed')} data-testid="save-error" role="alert">
              <Text size="sm">{saveError.message}</Text>
              {saveError.details.length > 0 && (
                <Stack gap={2} mt={4} component="ul" style={{ paddingLeft: 18, margin: 0, maxHeight: 96, overflowY: 'auto' }}>
                  {saveError.details.map((d, i) => (
                    <Text key={i} size="sm" component="li">
                      {d}
                    </Text>
                  ))}
                </Stack>
              )}
            </Alert>
          )}
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text
              size="sm"
              fw={dirty > 0 ? 600 : 400}
              c={dirty > 0 ? '#9a3412' : 'dimmed'}
              style={{ minWidth: 0, lineHeight: 1.25 }}
              data-testid="dirty-count"
              data-count={dirty}
            >
              {dirty > 0 ? t(narrow ? 'dirtyShort' : 'dirty', { count: dirty, n: num(dirty) }) : t('clean')}
            </Text>
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              {dirty > 0 &&
                (narrow ? (
                  <ActionIcon variant="subtle" size={40} onClick={() => setDraft({})} aria-label={t('discard')} data-testid="discard">
                    <IconArrowBackUp size={20} aria-hidden />
                  </ActionIcon>
                ) : (
                  <Button variant="subtle" size="sm" onClick={() => setDraft({})} data-testid="discard">
                    {t('discard')}
                  </Button>
                ))}
              <Button
                size="sm"
                leftSection={<IconDeviceFloppy size={18} aria-hidden />}
                onClick={() => void submit()}
                loading={save.isPending || preview.isPending}
                disabled={dirty === 0}
                data-testid="save"
              >
                {tc('actions.save')}
              </Button>
            </Group>
          </Group>
        </Paper>
      )}
      <SaveConfirm
        preview={confirming?.preview ?? null}
        saving={save.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void store(confirming.entries, true)}
      />
      <Modal
        opened={overwriteOpen}
        onClose={() => setOverwriteOpen(false)}
        title={t('bulk.overwriteTitle')}
        centered
        size="auto"
        closeButtonProps={{ 'aria-label': tc('actions.cancel') }}
        data-testid="overwrite-dialog"
      >
        <StatusPicker
          target={{ kind: 'class' }}
          form={form}
          stored={stored}
          draft={draft}
          editable
          defaultOverwrite
          infoText={() => ''}
          onPick={(status, overwrite) => {
            bulk({ kind: 'class' }, status, overwrite);
            setOverwriteOpen(false);
          }}
        />
      </Modal>
    </Stack>
  );
}

export default function AttendancePage() {
  const { t } = useTranslation('attendance');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  // On a phone the grid is what matters: the page's description gives it the room.
  const narrow = !!useMediaQuery('(max-width: 48em)');
  const navigate = useNavigate();
  const { me, can } = useSession();
  const params = useParams();
  const classId = Number(params.classId) || 0;
  const date = isISODate(params.date) ? params.date : '';
  const today = todayISO();
  const homeroom = me?.user.role === 'wali_kelas';
  const classes = useClasses();
  const list = classes.data?.data ?? [];
  const form = useAttendanceForm(classId, date);

  // /absensi alone: a homeroom teacher's own class, else the class chosen last, on today.
  useEffect(() => {
    if (classId && date) return;
    if (classId && !date) {
      navigate(paths.day(classId, today), { replace: true });
      return;
    }
    if (!classes.isSuccess) return;
    const remembered = Number(localStorage.getItem(LAST_CLASS)) || 0;
    const pick = homeroom ? list[0]?.id : list.find((c) => c.id === remembered)?.id;
    if (pick) navigate(paths.day(pick, today), { replace: true });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs only when the values listed change (the others are read at that moment)
  }, [classId, date, classes.isSuccess, homeroom]);

  const go = (id: number, d: string) => {
    if (!id) return;
    localStorage.setItem(LAST_CLASS, String(id));
    navigate(paths.day(id, d || today));
  };

  const editable = !!form.data?.can_edit && can('attendance.record');
  const ownClass = homeroom ? list[0] : undefined;

  return (
    <>
      <PageHeader title={t('title')} description={narrow ? undefined : t('description')} />
      <Stack gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap" data-testid="attendance-toolbar">
          {homeroom ? (
            <Text fw={600} data-testid="own-class" style={{ alignSelf: 'center' }}>
              {ownClass ? t('ownClass', { name: ownClass.name }) : classes.isSuccess ? t('noOwnClass') : ''}
            </Text>
          ) : (
            <Select
              label={t('class')}
              placeholder={t('pickClass')}
              searchable
              data={list.map((c) => ({ value: String(c.id), label: c.name }))}
              value={classId ? String(classId) : null}
              onChange={(v) => go(Number(v), date)}
              nothingFoundMessage={t('noClassFound')}
              w={{ base: '100%', xs: 220 }}
              data-testid="class-picker"
            />
          )}
          {/* One line at any width: at 360 px the date field gives up the room "Today" needs
              (a past date used to make the page 389 px wide). */}
          <Group gap={4} wrap="nowrap" align="flex-end" maw="100%" miw={0}>
            <ActionIcon
              variant="default"
              size={40}
              aria-label={t('prevDay')}
              onClick={() => go(classId, shiftDay(date || today, -1))}
              disabled={!classId}
              data-testid="prev-day"
            >
              <IconChevronLeft size={20} aria-hidden />
            </ActionIcon>
            <DatePickerInput
              label={t('date')}
              value={date || today}
              onChange={(v) => v && go(classId, String(v).slice(0, 10))}
              maxDate={today}
              // On a phone the weekday is in the line under the toolbar: the field keeps one line.
              valueFormat={narrow ? 'D MMM YYYY' : 'ddd, D MMM YYYY'}
              leftSection={<IconCalendar size={16} aria-hidden />}
              w={narrow ? 150 : 190}
              miw={0}
              styles={{ input: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } }}
              disabled={!classId}
              data-testid="date-picker"
            />
            <ActionIcon
              variant="default"
              size={40}
              aria-label={t('nextDay')}
              onClick={() => go(classId, shiftDay(date, 1))}
              disabled={!classId || !date || date >= today}
              data-testid="next-day"
            >
              <IconChevronRight size={20} aria-hidden />
            </ActionIcon>
            {date && date !== today && (
              <Button variant="subtle" size="sm" h={40} px="xs" style={{ flexShrink: 0 }} onClick={() => go(classId, today)} data-testid="to-today">
                {t('today')}
              </Button>
            )}
          </Group>
        </Group>
        {date && (
          <Text size="sm" c="dimmed" data-testid="form-date" data-date={date}>
            {form.data ? t('formOf', { name: form.data.class_name, date: fmt(date, 'weekdayDate') }) : fmt(date, 'weekdayDate')}
          </Text>
        )}
        {!classId && classes.isSuccess && !homeroom && <EmptyState message={t('pickClassFirst')} testId="pick-class-first" />}
        {classId > 0 && form.isPending && <PageLoader />}
        {form.isError && (
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} data-testid="form-error">
            {errorMessage(form.error, tc)}
          </Alert>
        )}
        {classId > 0 && <PendingExcuses classId={classId} />}
        {form.data && <FormBody key={`${form.data.class_id}/${form.data.date}`} form={form.data} editable={editable} />}
      </Stack>
    </>
  );
}
