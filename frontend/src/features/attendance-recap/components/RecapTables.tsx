import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Group, Table, Text } from '@mantine/core';
import { useFormatDate } from '@/lib/useFormatDate';
import { useFormatNumber } from '@/lib/numbers';
import { isStatus } from '../statuses';
import { STATUSES, countOf, type AttendanceCounts, type AttendanceRecap, type AttendanceSchoolRecap } from '../types';
import { Belum, StatusBadge } from './StatusBadge';

/** The first column stays in view while the rest scrolls sideways (phones). */
const sticky = { position: 'sticky', left: 0, background: 'var(--mantine-color-body)', zIndex: 1, minWidth: 150, maxWidth: 220 } as const;

function Scroll({ children, label, testId }: { children: ReactNode; label: string; testId: string }) {
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table striped highlightOnHover withTableBorder withColumnBorders verticalSpacing={4} horizontalSpacing={6} aria-label={label} data-testid={testId} style={{ fontSize: 13 }}>
        {children}
      </Table>
    </Table.ScrollContainer>
  );
}

function Pct({ value }: { value: number | null }) {
  const { i18n } = useTranslation();
  if (value === null) return <Text span c="dimmed">–</Text>;
  return <>{value.toLocaleString(i18n.resolvedLanguage === 'en' ? 'en-US' : 'id-ID', { maximumFractionDigits: 1 })}%</>;
}

/** Counts per status as coloured badges ("H8 A2"); nothing stored: a grey dash. */
function CountBadges({ c }: { c: AttendanceCounts }) {
  const shown = STATUSES.filter((s) => countOf(c, s) > 0);
  if (shown.length === 0) return <Belum />;
  return (
    <Group gap={2} wrap="nowrap">
      {shown.map((s) => (
        <StatusBadge key={s} status={s} count={countOf(c, s)} />
      ))}
    </Group>
  );
}

function CountCells({ c }: { c: AttendanceCounts }) {
  const num = useFormatNumber();
  return (
    <>
      {STATUSES.map((s) => (
        <Table.Td key={s} ta="right" data-status={s}>
          {countOf(c, s) > 0 ? num(countOf(c, s)) : <Text span c="dimmed">0</Text>}
        </Table.Td>
      ))}
    </>
  );
}

function StatusHeads() {
  return (
    <>
      {STATUSES.map((s) => (
        <Table.Th key={s} ta="center">
          <StatusBadge status={s} />
        </Table.Th>
      ))}
    </>
  );
}

/** A class's recap: daily (students × hours), weekly (students × days) or monthly (counts and %). */
export function ClassRecapTable({ recap }: { recap: AttendanceRecap }) {
  const { t } = useTranslation('attendance-recap');
  const fmt = useFormatDate();
  const label = t('table.label', { name: recap.class_name });
  if (recap.period === 'daily') {
    const hours = Array.from({ length: recap.lesson_hours }, (_, i) => i + 1);
    return (
      <Scroll label={label} testId="recap-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={sticky}>{t('table.student')}</Table.Th>
            {hours.map((h) => (
              <Table.Th key={h} ta="center" aria-label={t('table.hour', { hour: h })}>
                {h}
              </Table.Th>
            ))}
            <Table.Th ta="right">{t('table.percentage')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {recap.students.map((st) => (
            <Table.Tr key={st.id} data-testid={`recap-row-${st.id}`}>
              <Table.Td style={sticky}>{st.full_name}</Table.Td>
              {hours.map((h) => {
                const v = st.hours?.[h - 1] ?? '';
                return (
                  <Table.Td key={h} ta="center">
                    {isStatus(v) ? <StatusBadge status={v} /> : <Belum />}
                  </Table.Td>
                );
              })}
              <Table.Td ta="right">
                <Pct value={st.percentage} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Scroll>
    );
  }
  const weekly = recap.period === 'weekly';
  return (
    <Scroll label={label} testId="recap-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th style={sticky}>{t('table.student')}</Table.Th>
          {weekly &&
            recap.dates.map((d) => (
              <Table.Th key={d} ta="center" style={{ whiteSpace: 'nowrap' }}>
                {fmt(d, 'weekdayDate').split(',')[0]!.slice(0, 3)} {d.slice(8)}
              </Table.Th>
            ))}
          <StatusHeads />
          {!weekly && <Table.Th ta="right">{t('table.days')}</Table.Th>}
          <Table.Th ta="right">{t('table.percentage')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {recap.students.map((st) => (
          <Table.Tr key={st.id} data-testid={`recap-row-${st.id}`}>
            <Table.Td style={sticky}>{st.full_name}</Table.Td>
            {weekly &&
              (st.days ?? []).map((c, i) => (
                <Table.Td key={recap.dates[i]} ta="center" data-date={recap.dates[i]}>
                  <CountBadges c={c} />
                </Table.Td>
              ))}
            <CountCells c={st.counts} />
            {!weekly && <Table.Td ta="right">{st.days_recorded}</Table.Td>}
            <Table.Td ta="right">
              <Pct value={st.percentage} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Scroll>
  );
}

/** Every class's line: size, unique students per status, attendance %. */
export function SchoolRecapTable({ recap, onOpen }: { recap: AttendanceSchoolRecap; onOpen: (classId: number) => void }) {
  const { t } = useTranslation('attendance-recap');
  const num = useFormatNumber();
  return (
    <Scroll label={t('school.label')} testId="school-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th style={sticky}>{t('school.class')}</Table.Th>
          <Table.Th ta="right">{t('school.size')}</Table.Th>
          <StatusHeads />
          <Table.Th ta="right">{t('table.percentage')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {recap.classes.map((c) => (
          <Table.Tr key={c.class_id} data-testid={`school-row-${c.class_id}`}>
            <Table.Td style={sticky}>
              <Text
                component="button"
                type="button"
                onClick={() => onOpen(c.class_id)}
                size="sm"
                c="blue.8"
                style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer', textAlign: 'left', textDecoration: 'underline' }}
              >
                {c.class_name}
              </Text>
            </Table.Td>
            <Table.Td ta="right">{num(c.size)}</Table.Td>
            <CountCells c={c.students_with} />
            <Table.Td ta="right">
              <Pct value={c.percentage} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Scroll>
  );
}

/** Unique students per status (a student with two A hours is one), and how many were recorded. */
export function StudentsSummary({ counts, recorded, size }: { counts: AttendanceCounts; recorded?: number; size?: number }) {
  const { t } = useTranslation('attendance-recap');
  const num = useFormatNumber();
  return (
    <Group gap="xs" wrap="wrap" data-testid="recap-summary">
      {STATUSES.map((s) => (
        <Group key={s} gap={4} wrap="nowrap" data-testid={`summary-${s}`} data-count={countOf(counts, s)}>
          <StatusBadge status={s} />
          <Text size="sm">{t('summaryStudents', { n: num(countOf(counts, s)) })}</Text>
        </Group>
      ))}
      {recorded !== undefined && (
        <Text size="sm" c="dimmed" data-testid="summary-recorded">
          {size !== undefined ? t('recordedOf', { n: num(recorded), size: num(size) }) : t('recorded', { n: num(recorded) })}
        </Text>
      )}
    </Group>
  );
}
