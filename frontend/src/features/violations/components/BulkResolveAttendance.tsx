import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Loader, Modal, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertCircle, IconChecks } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { DateRangeFilter } from '@/components/DateRangeFilter';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { thisWeek } from '../bulkResolve';
import { useOpenAttendance, useResolveAttendance } from '../hooks';
import { ATTENDANCE_KINDS, type AttendanceKind } from '../types';

/**
 * The homeroom teacher's follow-up of a class's automatic lateness and alpha in two taps: the
 * button opens a dialog that already says what will be resolved this week ("12 keterlambatan dari
 * 5 siswa"), and its confirm resolves them with one shared handling record. Kind and range can be
 * changed before confirming. Shown to whoever holds handlings.resolve_attendance, for one class:
 * the violation list puts it beside "Kelas Anda"; the class attendance recap can mount it too
 * (`<BulkResolveAttendance classId={…} className={…} />`).
 */
export function BulkResolveAttendance({ classId, className }: { classId: number; className: string }) {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const [opened, setOpened] = useState(false);
  const [kind, setKind] = useState<AttendanceKind>('late');
  const [range, setRange] = useState(thisWeek);
  const [notes, setNotes] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useOpenAttendance(classId, range.from, range.to, kind, opened);
  const resolve = useResolveAttendance();
  if (!can('handlings.resolve_attendance') || classId <= 0) return null;

  const period = range.from === range.to ? fmt(range.from, 'date') : `${fmt(range.from, 'shortDate')} – ${fmt(range.to, 'shortDate')}`;
  const defaultNotes = t(`bulkResolve.notes.${kind}`, { period, name: className });
  const count = preview.data?.count ?? 0;
  const tooMany = !!preview.data && count > preview.data.max;

  const open = () => {
    setKind('late');
    setRange(thisWeek());
    setNotes(null);
    setError(null);
    setOpened(true);
  };

  const confirm = async () => {
    setError(null);
    try {
      const res = await resolve.mutateAsync({
        classId,
        input: { from: range.from, to: range.to, kind, notes: (notes ?? defaultNotes).trim() },
      });
      notifySuccess(res.resolved > 0 ? t('bulkResolve.done', { count: res.resolved, students: t('selection.students', { count: res.students }) }) : t('bulkResolve.nothing'));
      setOpened(false);
    } catch (err) {
      setError(errorMessage(err, tc));
    }
  };

  return (
    <>
      {/* The label may wrap: on a 360 px phone it shares the header with "Catat pelanggaran". */}
      <Button
        variant="light"
        color="teal"
        leftSection={<IconChecks size={18} aria-hidden />}
        onClick={open}
        h="auto"
        mih={44}
        py={6}
        maw="100%"
        styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
        data-testid="bulk-resolve"
      >
        {t('bulkResolve.button')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('bulkResolve.title', { name: className })}
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
              {error}
            </Alert>
          )}
          <SegmentedControl
            fullWidth
            value={kind}
            onChange={(v) => setKind(v as AttendanceKind)}
            data={ATTENDANCE_KINDS.map((k) => ({ value: k, label: t(`bulkResolve.kind.${k}`) }))}
            aria-label={t('bulkResolve.kindLabel')}
            data-testid="bulk-kind"
          />
          {/* Wrapped: the filter's flex basis is meant for a row of filters, not this column. */}
          <div>
            <DateRangeFilter
              label={t('bulkResolve.period')}
              placeholder={t('bulkResolve.period')}
              clearLabel={t('filters.clear')}
              from={range.from}
              to={range.to}
              onChange={(from, to) => from && to && setRange({ from, to })}
              testId="bulk-period"
            />
          </div>
          <Text size="sm" aria-live="polite" data-testid="bulk-preview">
            {preview.isPending ? (
              <Loader size="xs" aria-label={tc('loading')} />
            ) : preview.isError ? (
              errorMessage(preview.error, tc)
            ) : count === 0 ? (
              t('bulkResolve.none')
            ) : tooMany ? (
              t('bulkResolve.tooMany', { n: num(count), max: num(preview.data!.max) })
            ) : (
              `${t(`bulkResolve.preview.${kind}`, { count, n: num(count) })} · ${t('selection.students', { count: preview.data!.students })}`
            )}
          </Text>
          {preview.data && count > 0 && !tooMany && (
            <Text size="sm" c="dimmed">
              {t('bulkResolve.recordAs', { type: preview.data.handling_type_name })}
            </Text>
          )}
          <Textarea label={t('handling.notes')} autosize minRows={2} maxLength={5000} value={notes ?? defaultNotes} onChange={(e) => setNotes(e.currentTarget.value)} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpened(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button
              color="teal"
              leftSection={<IconChecks size={18} aria-hidden />}
              disabled={count === 0 || tooMany}
              loading={resolve.isPending}
              onClick={() => void confirm()}
              data-testid="bulk-confirm"
            >
              {t('bulkResolve.confirm', { count, n: num(count) })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
