import { useTranslation } from 'react-i18next';
import { Card, Group, Select, Stack, Table, Text } from '@mantine/core';
import { DataList } from '@/components/DataList';
import { DateRangeFilter } from '@/components/DateRangeFilter';
import { useFormatDate } from '@/lib/useFormatDate';
import { OUTCOMES, pageMeta, type FaceScan, type ReviewFilters, type ScanOutcome } from '../api';
import { isOpen } from '../display';
import { useFaceScans } from '../hooks';
import { AttendanceBadge, ChallengeText, OutcomeBadge, usePercent } from './ScanBits';

const PER_PAGE = 25;

/** Who the scan is about: the match, the candidate of an uncertain scan, or how it was resolved. */
function Who({ s }: { s: FaceScan }) {
  const { t } = useTranslation('face-scans');
  if (s.resolution === 'confirmed')
    return (
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {s.resolved_student_name || s.student_name}
        </Text>
        <Text size="xs" c="dimmed">
          {t('confirmedBy', { by: s.resolved_by_name || '—' })}
        </Text>
      </div>
    );
  if (s.resolution === 'rejected')
    return (
      <div style={{ minWidth: 0 }}>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {s.student_name ? t('candidateWas', { name: s.student_name }) : '—'}
        </Text>
        <Text size="xs" c="dimmed">
          {t('rejectedBy', { by: s.resolved_by_name || '—' })}
        </Text>
      </div>
    );
  if (!s.student_name)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="sm" fw={s.outcome === 'matched' ? 500 : 400} style={{ overflowWrap: 'anywhere' }}>
        {s.outcome === 'matched' ? s.student_name : t('candidateWas', { name: s.student_name })}
      </Text>
      <Text size="xs" c="dimmed">
        {isOpen(s) ? t('waiting') : s.class_name}
      </Text>
    </div>
  );
}

function Scores({ s }: { s: FaceScan }) {
  const { t } = useTranslation('face-scans');
  const pct = usePercent();
  if (s.score === null)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <Text size="xs" style={{ whiteSpace: 'nowrap' }} data-testid="face-scan-score">
      {t('scoreShort', { score: pct(s.score) })}
      {s.margin !== null && ` · ${t('marginShort', { margin: pct(s.margin) })}`}
    </Text>
  );
}

function ScanCard({ s }: { s: FaceScan }) {
  const fmt = useFormatDate();
  return (
    <Stack
      gap={6}
      p="sm"
      data-testid={`face-scan-row-${s.id}`}
      data-outcome={s.outcome}
      data-attendance={s.attendance || 'none'}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text size="sm">{fmt(s.scanned_at, 'dateTimeSeconds')}</Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {s.kiosk_name || '—'}
          </Text>
        </div>
        <OutcomeBadge outcome={s.outcome} />
      </Group>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Who s={s} />
        <AttendanceBadge attendance={s.attendance} />
      </Group>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <ChallengeText s={s} />
        <Scores s={s} />
      </Group>
    </Stack>
  );
}

/** Every scan of the kiosks, newest first, with its outcome and what it did to attendance. */
export function ScanLog({ filters, update, clear }: { filters: ReviewFilters; update: (c: Partial<ReviewFilters>) => void; clear: () => void }) {
  const { t } = useTranslation('face-scans');
  const fmt = useFormatDate();
  const q = useFaceScans(filters, PER_PAGE);
  const rows = q.data?.data ?? [];
  // Whether the log is narrowed by anything (the empty state then offers to clear it).
  const filtered = !!(filters.outcome || filters.period.from || filters.period.to);

  return (
    <Card withBorder padding={0}>
      <Group p="md" gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('filters.outcome')}
          placeholder={t('filters.all')}
          data={OUTCOMES.map((o) => ({ value: o, label: t(`outcome.${o}`) }))}
          value={filters.outcome || null}
          onChange={(v) => update({ outcome: (v ?? '') as ScanOutcome | '' })}
          clearable
          clearButtonProps={{ 'aria-label': t('filters.clear') }}
          style={{ flex: '1 1 180px', minWidth: 0 }}
          data-testid="face-log-outcome"
        />
        <DateRangeFilter
          label={t('filters.period')}
          placeholder={t('filters.allDates')}
          clearLabel={t('filters.clear')}
          from={filters.period.from}
          to={filters.period.to}
          onChange={(from, to) => update({ period: { from, to } })}
          testId="face-log-period"
        />
      </Group>

      <DataList
        query={q}
        rows={rows}
        rowKey={(s) => s.id}
        label={t('tabs.log')}
        testId="face-scan-list"
        minWidth={900}
        striped
        head={
          <>
            <Table.Th>{t('fields.time')}</Table.Th>
            <Table.Th>{t('fields.kiosk')}</Table.Th>
            <Table.Th>{t('fields.outcome')}</Table.Th>
            <Table.Th>{t('fields.student')}</Table.Th>
            <Table.Th>{t('fields.score')}</Table.Th>
            <Table.Th>{t('fields.challenge')}</Table.Th>
            <Table.Th>{t('fields.attendance')}</Table.Th>
          </>
        }
        row={(s) => (
          <Table.Tr data-testid={`face-scan-row-${s.id}`} data-outcome={s.outcome} data-attendance={s.attendance || 'none'}>
            <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
              <div>{fmt(s.scanned_at, 'shortDate')}</div>
              <Text size="xs" c="dimmed">
                {fmt(s.scanned_at, 'time')}
              </Text>
            </Table.Td>
            <Table.Td fz="sm" maw={180} style={{ overflowWrap: 'anywhere' }}>
              {s.kiosk_name || '—'}
            </Table.Td>
            <Table.Td miw={140}>
              <OutcomeBadge outcome={s.outcome} />
            </Table.Td>
            <Table.Td miw={180}>
              <Who s={s} />
            </Table.Td>
            <Table.Td>
              <Scores s={s} />
            </Table.Td>
            <Table.Td miw={150}>
              <ChallengeText s={s} />
            </Table.Td>
            <Table.Td>
              <AttendanceBadge attendance={s.attendance} />
            </Table.Td>
          </Table.Tr>
        )}
        card={(s) => <ScanCard s={s} />}
        empty={{ message: filtered ? t('logEmptyFiltered') : t('logEmpty'), onClearFilters: filtered ? clear : undefined, testId: 'face-log-empty' }}
        meta={pageMeta(q.data, filters.page, PER_PAGE)}
        onPage={(page) => update({ page })}
      />
    </Card>
  );
}
