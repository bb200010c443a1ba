import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ActionIcon, Alert, Button, Group, SegmentedControl, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertCircle, IconCalendar, IconChevronLeft, IconChevronRight, IconFileSpreadsheet } from '@tabler/icons-react';
import type { DownloadedFile } from '@/api/client';
import { useSession } from '@/auth/session';
import { EmptyState } from '@/components/EmptyState';
import { PageHeader } from '@/components/PageHeader';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage, notifyError } from '@/components/serverErrors';
import { useClasses } from '@/features/students/hooks';
import { useFormatDate } from '@/lib/useFormatDate';
import { saveFile } from '@/platform';
import { classSemesterXLSX, classWeekly, schoolSemesterXLSX, schoolWeekly } from '../api';
import { AttendanceCalendar } from '../components/AttendanceCalendar';
import { Legend } from '../components/Legend';
import { ChipsSummary, ClassRecapTable, SchoolRecapTable } from '../components/RecapTables';
import { academicYear, chipsOf, recapChips, semesterNeighbour } from '../days';
import { useClassRecap, useSchoolRecap } from '../hooks';
import { isISODate, mondayOf, monthOf, shiftPeriod, todayISO } from '../periods';
import { PERIODS, type Period } from '../types';
import '@/app/pageStyles';

const LAST_CLASS = 'tatib.attendance.class';

function isPeriod(v: string | null): v is Period {
  return v === 'daily' || v === 'weekly' || v === 'monthly' || v === 'semester';
}

/** "3 – 9 November 2025", "November 2025", "Senin, 3 November 2025" or "Semester 1 · 2025/2026 (1 Jul 2025 – 31 Des 2025)". */
function usePeriodLabel() {
  const { t } = useTranslation('attendance-recap');
  const fmt = useFormatDate();
  return (r: { period: Period; from: string; to: string; year?: number; semester?: number }) => {
    if (r.period === 'daily') return fmt(r.from, 'weekdayDate');
    if (r.period === 'monthly') return fmt(r.from, 'date').replace(/^\d+\s/, '');
    const range = `${fmt(r.from, 'shortDate')} – ${fmt(r.to, 'shortDate')}`;
    if (r.period === 'semester' && r.year) return `${t('semesterLabel', { semester: r.semester, year: academicYear(r.year) })} (${range})`;
    return range;
  };
}

/**
 * Period tabs, previous/next and the date picker: the same on both tabs. A semester moves by the
 * bounds the server answered (the school's academic-year start decides them), else by six months.
 */
function PeriodBar({
  period,
  date,
  onChange,
  bounds,
}: {
  period: Period;
  date: string;
  onChange: (p: Period, d: string) => void;
  bounds?: { from: string; to: string };
}) {
  const { t } = useTranslation('attendance-recap');
  const today = todayISO();
  const step = (n: number) =>
    period === 'semester' && bounds ? semesterNeighbour(bounds.from, bounds.to, n) : period === 'semester' ? shiftPeriod(date, 'monthly', 6 * n) : shiftPeriod(date, period, n);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <SegmentedControl
        value={period}
        onChange={(v) => isPeriod(v) && onChange(v, date)}
        data={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
        aria-label={t('period.label')}
        size="sm"
        fullWidth
        style={{ maxWidth: '100%' }}
        data-testid="period-tabs"
      />
      <Group gap={4} wrap="wrap" align="flex-end">
        <ActionIcon variant="default" size={36} aria-label={t(`prev.${period}`)} onClick={() => onChange(period, step(-1))} data-testid="prev-period">
          <IconChevronLeft size={18} aria-hidden />
        </ActionIcon>
        <DatePickerInput
          aria-label={t('date')}
          value={date}
          onChange={(v) => v && onChange(period, String(v).slice(0, 10))}
          valueFormat="D MMM YYYY"
          leftSection={<IconCalendar size={16} aria-hidden />}
          w={160}
          data-testid="recap-date"
        />
        <ActionIcon variant="default" size={36} aria-label={t(`next.${period}`)} onClick={() => onChange(period, step(1))} data-testid="next-period">
          <IconChevronRight size={18} aria-hidden />
        </ActionIcon>
        {date !== today && (
          <Button variant="subtle" size="sm" onClick={() => onChange(period, today)} data-testid="to-today">
            {t('today')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

function ExportButton({ download, testId, label, fallbackName }: { download: () => Promise<DownloadedFile>; testId: string; label: string; fallbackName: string }) {
  const { t: tc } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      // The server names the file (class and week, or semester).
      const file = await download();
      await saveFile(file.blob, file.fileName ?? fallbackName);
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconFileSpreadsheet size={18} aria-hidden />} onClick={run} loading={busy} data-testid={testId}>
      {label}
    </Button>
  );
}

function ClassTab({ classId, period, date, onChange }: { classId: number; period: Period; date: string; onChange: (p: Period, d: string) => void }) {
  const { t } = useTranslation('attendance-recap');
  const { t: tc } = useTranslation();
  const { can, me } = useSession();
  const label = usePeriodLabel();
  const recap = useClassRecap(classId, period, date);
  const r = recap.data;
  const chips = r ? recapChips(r) : undefined;
  const exporting = can('attendance.export') && classId > 0;
  const homeroom = me?.user.role === 'wali_kelas';
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <PeriodBar period={period} date={date} onChange={onChange} bounds={r?.period === 'semester' ? r : undefined} />
        {period === 'weekly' && exporting && <ExportButton download={() => classWeekly(classId, date)} testId="export-weekly" label={t('export')} fallbackName="rekap-absensi-mingguan.xlsx" />}
      </Group>
      {recap.isPending && classId > 0 && <PageLoader />}
      {recap.isError && (
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
          {errorMessage(recap.error, tc)}
        </Alert>
      )}
      {r && chips && (
        <>
          <Text size="sm" fw={600} data-testid="recap-period" data-from={r.from} data-to={r.to}>
            {r.class_name} · {label(r)}
          </Text>
          {r.period === 'semester' && r.year && exporting && (
            <Group gap="xs" wrap="wrap" data-testid="semester-exports">
              <ExportButton
                download={() => classSemesterXLSX(classId, r.year!, r.semester!)}
                testId="export-semester"
                label={t('exportSemester')}
                fallbackName="ketidakhadiran.xlsx"
              />
              {!homeroom && (
                <ExportButton
                  download={() => schoolSemesterXLSX(r.year!, r.semester!)}
                  testId="export-semester-all"
                  label={t('exportSemesterAll')}
                  fallbackName="ketidakhadiran-semua-kelas.xlsx"
                />
              )}
            </Group>
          )}
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {chips.perDay ? t('summaryDay') : t('summaryPeriod')}
            </Text>
            <ChipsSummary chips={chips.chips} perDay={chips.perDay} size={r.students.length} schoolDays={r.school_days} />
          </Stack>
          {r.students.length === 0 ? <EmptyState message={t('noStudents')} testId="recap-empty" /> : <ClassRecapTable recap={r} />}
          {r.period === 'semester' && (
            <Text size="xs" c="dimmed" data-testid="erapor-hint">
              {t('eraporHint')}
            </Text>
          )}
          <Text size="xs" c="dimmed" data-testid="day-rule-note">
            {t(`dayRule.note.${r.day_rule}`)}
          </Text>
          <Legend />
        </>
      )}
      {classId > 0 && (
        <Stack gap="xs" mt="md">
          <Title order={2} size="h4">
            {t('calendar.title')}
          </Title>
          <div style={{ maxWidth: 520 }}>
            <AttendanceCalendar kind="class" id={classId} month={monthOf(date)} />
          </div>
        </Stack>
      )}
    </Stack>
  );
}

function SchoolTab({ period, date, onChange, onOpen }: { period: Period; date: string; onChange: (p: Period, d: string) => void; onOpen: (id: number) => void }) {
  const { t } = useTranslation('attendance-recap');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const label = usePeriodLabel();
  const recap = useSchoolRecap(period, date);
  const r = recap.data;
  // A day: the school's students per day status; a period: its student-days.
  const day = r?.period === 'daily' ? r.summary[0] : undefined;
  const schoolDays = r && r.classes.length > 0 ? r.classes[0]!.school_days : 0;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <PeriodBar period={period} date={date} onChange={onChange} bounds={r?.period === 'semester' ? r : undefined} />
        {period === 'weekly' && can('attendance.export') && (
          <ExportButton download={() => schoolWeekly(date)} testId="export-weekly-all" label={t('exportAll')} fallbackName="rekap-absensi-mingguan.xlsx" />
        )}
        {r?.period === 'semester' && r.year && r.classes.length > 0 && can('attendance.export') && (
          <ExportButton
            download={() => schoolSemesterXLSX(r.year!, r.semester!)}
            testId="export-semester-school"
            label={t('exportSemesterAll')}
            fallbackName="ketidakhadiran-semua-kelas.xlsx"
          />
        )}
      </Group>
      {recap.isPending && <PageLoader />}
      {recap.isError && (
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
          {errorMessage(recap.error, tc)}
        </Alert>
      )}
      {r && (
        <>
          <Text size="sm" fw={600} data-testid="school-period">
            {label(r)}
          </Text>
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {day ? t('summaryDay') : t('summaryPeriod')}
            </Text>
            <ChipsSummary
              chips={day ? chipsOf(day.students, day.unrecorded) : chipsOf(r.days, r.days_unrecorded)}
              perDay={!!day}
              size={r.size}
              schoolDays={schoolDays}
            />
          </Stack>
          {r.classes.length === 0 ? <EmptyState message={t('school.none')} /> : <SchoolRecapTable recap={r} onOpen={onOpen} />}
          <Text size="xs" c="dimmed">
            {t(`dayRule.note.${r.day_rule}`)}
          </Text>
        </>
      )}
    </Stack>
  );
}

/**
 * Attendance recaps: a class (daily, weekly, monthly; its month calendar; the weekly Excel) and,
 * for everyone but a homeroom teacher, the whole school per class. The state lives in the URL
 * (?tab=&class=&period=&date=) so a recap can be linked and survives a reload.
 */
export default function RecapPage() {
  const { t } = useTranslation('attendance-recap');
  const { me } = useSession();
  const [sp, setSp] = useSearchParams();
  const homeroom = me?.user.role === 'wali_kelas';
  const classes = useClasses();
  const list = classes.data?.data ?? [];
  const today = todayISO();
  const period: Period = isPeriod(sp.get('period')) ? (sp.get('period') as Period) : 'weekly';
  const date = isISODate(sp.get('date')) ? sp.get('date')! : today;
  const tab = !homeroom && sp.get('tab') === 'school' ? 'school' : 'class';
  const classParam = Number(sp.get('class')) || 0;
  const classId = homeroom ? (list[0]?.id ?? 0) : classParam;

  // No class chosen: the one chosen last on an attendance screen.
  useEffect(() => {
    if (homeroom || classParam || !classes.isSuccess) return;
    const remembered = Number(localStorage.getItem(LAST_CLASS)) || 0;
    const pick = list.find((c) => c.id === remembered)?.id;
    if (pick) update({ class: String(pick) }, true);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs only when the values listed change (the others are read at that moment)
  }, [homeroom, classParam, classes.isSuccess]);

  function update(change: Record<string, string>, replace = false) {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    setSp(next, { replace });
  }
  const setPeriod = (p: Period, d: string) => update({ period: p, date: p === 'weekly' ? mondayOf(d) : d });
  const pickClass = (id: number) => {
    localStorage.setItem(LAST_CLASS, String(id));
    update({ class: String(id), tab: 'class' });
  };

  const classTab = (
    <Stack gap="sm">
      {homeroom ? (
        <Text fw={600} data-testid="own-class">
          {list[0] ? t('ownClass', { name: list[0].name }) : classes.isSuccess ? t('noOwnClass') : ''}
        </Text>
      ) : (
        <Select
          label={t('class')}
          placeholder={t('pickClass')}
          searchable
          data={list.map((c) => ({ value: String(c.id), label: c.name }))}
          value={classId ? String(classId) : null}
          onChange={(v) => v && pickClass(Number(v))}
          nothingFoundMessage={t('noClassFound')}
          w={{ base: '100%', xs: 240 }}
          data-testid="recap-class-picker"
        />
      )}
      {classId > 0 ? (
        <ClassTab classId={classId} period={period} date={date} onChange={setPeriod} />
      ) : (
        classes.isSuccess && !homeroom && <EmptyState message={t('pickClassFirst')} testId="recap-pick-class" />
      )}
    </Stack>
  );

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {homeroom ? (
        classTab
      ) : (
        <Tabs value={tab} onChange={(v) => v && update({ tab: v })} keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="class" data-testid="tab-class">
              {t('tab.class')}
            </Tabs.Tab>
            <Tabs.Tab value="school" data-testid="tab-school">
              {t('tab.school')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="class">{classTab}</Tabs.Panel>
          <Tabs.Panel value="school">
            <SchoolTab period={period} date={date} onChange={setPeriod} onOpen={pickClass} />
          </Tabs.Panel>
        </Tabs>
      )}
    </>
  );
}
