import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Group, Stack, Table, Text } from '@mantine/core';
import { useFormatDate } from '@/lib/useFormatDate';
import { formatDecimal, useFormatNumber } from '@/lib/numbers';
import { sumOf, type Chip } from '../days';
import { isStatus } from '../statuses';
import { STATUSES, countOf, type AttendanceCounts, type AttendanceRecap, type AttendanceRecapStudent, type AttendanceSchoolRecap } from '../types';
import { Belum, StatusBadge } from './StatusBadge';

/** The first column stays in view while the rest scrolls sideways (phones). */
const sticky = { position: 'sticky', left: 0, background: 'var(--mantine-color-body)', zIndex: 1, minWidth: 130, maxWidth: 200 } as const;
/** A column group's header: centred over its columns, a line under it. */
const group = { textAlign: 'center', whiteSpace: 'nowrap' } as const;

/** A table that scrolls sideways inside its own box: the page never does (360 px phones). */
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
  return <>{formatDecimal(value, i18n.resolvedLanguage ?? 'id', 0, 1)}%</>;
}

/** Counts per status as coloured badges ("H8 A2"); nothing stored: a grey dash. */
function CountBadges({ c }: { c: AttendanceCounts }) {
  const shown = STATUSES.filter((s) => countOf(c, s) > 0);
  if (shown.length === 0) return <Belum />;
  return (
    <Group gap={2} wrap="nowrap" justify="center">
      {shown.map((s) => (
        <StatusBadge key={s} status={s} count={countOf(c, s)} />
      ))}
    </Group>
  );
}

/** One number cell: zero dimmed. */
function Num({ n, testId }: { n: number; testId?: string }) {
  const num = useFormatNumber();
  return (
    <Table.Td ta="right" data-testid={testId} data-count={n}>
      {n > 0 ? num(n) : <Text span c="dimmed">0</Text>}
    </Table.Td>
  );
}

/** Five number cells, H S I A T. kind marks them for tests and screen readers ("days" or "hours"). */
function CountCells({ c, kind }: { c: AttendanceCounts; kind: 'days' | 'hours' }) {
  return (
    <>
      {STATUSES.map((s) => (
        <Num key={s} n={countOf(c, s)} testId={`${kind}-${s}`} />
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

/** A day's status by the school's rule, or belum. */
function DayStatus({ status }: { status: string | undefined }) {
  const { t } = useTranslation('attendance-recap');
  if (!status || !isStatus(status)) return <Belum />;
  return (
    <span aria-label={t('dayOf', { status: t(`status.${status}`) })} data-day-status={status}>
      <StatusBadge status={status} />
    </span>
  );
}

/** The group headers over "days" and "hours" (first header row of the period tables). */
function DaysHoursHeads() {
  const { t } = useTranslation('attendance-recap');
  return (
    <>
      <Table.Th colSpan={5} style={group}>
        {t('table.daysGroup')}
      </Table.Th>
      <Table.Th colSpan={5} style={group}>
        {t('table.hoursGroup')}
      </Table.Th>
    </>
  );
}

function StudentCell({ st, withNISN }: { st: AttendanceRecapStudent; withNISN?: boolean }) {
  return (
    <Table.Td style={sticky}>
      {st.full_name}
      {withNISN && st.nisn && (
        <Text size="xs" c="dimmed">
          {st.nisn}
        </Text>
      )}
    </Table.Td>
  );
}

/**
 * A class's recap. Daily: students × hours and each student's day status. Weekly: each day's
 * status and hours, then days and hours per status. Monthly: days and hours per status.
 * Semester: the report card's figures first (sakit, izin, tanpa keterangan in days, in e-Rapor's
 * order), then present and late days, days not recorded and hours per status.
 */
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
            <Table.Th ta="center">{t('table.day')}</Table.Th>
            <Table.Th ta="right">{t('table.percentage')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {recap.students.map((st) => (
            <Table.Tr key={st.id} data-testid={`recap-row-${st.id}`}>
              <StudentCell st={st} />
              {hours.map((h) => {
                const v = st.hours?.[h - 1] ?? '';
                return (
                  <Table.Td key={h} ta="center">
                    {isStatus(v) ? <StatusBadge status={v} /> : <Belum />}
                  </Table.Td>
                );
              })}
              <Table.Td ta="center" data-testid="day-status">
                <DayStatus status={st.day_statuses?.[0]} />
              </Table.Td>
              <Table.Td ta="right">
                <Pct value={st.percentage} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Scroll>
    );
  }
  if (recap.period === 'semester') return <SemesterTable recap={recap} label={label} />;
  const weekly = recap.period === 'weekly';
  return (
    <Scroll label={label} testId="recap-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th style={sticky} rowSpan={2}>
            {t('table.student')}
          </Table.Th>
          {weekly &&
            recap.dates.map((d) => (
              <Table.Th key={d} ta="center" rowSpan={2} style={{ whiteSpace: 'nowrap' }}>
                {fmt(d, 'weekdayDate').split(',')[0]!.slice(0, 3)} {d.slice(8)}
              </Table.Th>
            ))}
          <DaysHoursHeads />
          {!weekly && (
            <Table.Th ta="right" rowSpan={2}>
              {t('table.days')}
            </Table.Th>
          )}
          <Table.Th ta="right" rowSpan={2}>
            {t('table.percentage')}
          </Table.Th>
        </Table.Tr>
        <Table.Tr>
          <StatusHeads />
          <StatusHeads />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {recap.students.map((st) => (
          <Table.Tr key={st.id} data-testid={`recap-row-${st.id}`}>
            <StudentCell st={st} />
            {weekly &&
              (st.days ?? []).map((c, i) => (
                <Table.Td key={recap.dates[i]} ta="center" data-date={recap.dates[i]}>
                  <Stack gap={2} align="center">
                    <DayStatus status={st.day_statuses?.[i]} />
                    {sumOf(c) > 0 && <CountBadges c={c} />}
                  </Stack>
                </Table.Td>
              ))}
            <CountCells c={st.day_counts} kind="days" />
            <CountCells c={st.counts} kind="hours" />
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

/** The semester: e-Rapor's three columns first, as its homeroom "Ketidakhadiran" screen has them. */
function SemesterTable({ recap, label }: { recap: AttendanceRecap; label: string }) {
  const { t } = useTranslation('attendance-recap');
  return (
    <Scroll label={label} testId="recap-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th rowSpan={2} ta="right">
            {t('table.no')}
          </Table.Th>
          <Table.Th style={sticky} rowSpan={2}>
            {t('table.student')}
          </Table.Th>
          <Table.Th colSpan={3} style={{ ...group, background: 'var(--mantine-color-blue-0)' }}>
            {t('table.erapor')}
          </Table.Th>
          <Table.Th colSpan={2} style={group}>
            {t('table.otherDays')}
          </Table.Th>
          <Table.Th rowSpan={2} ta="right">
            {t('table.unrecorded')}
          </Table.Th>
          <Table.Th colSpan={5} style={group}>
            {t('table.hoursGroup')}
          </Table.Th>
          <Table.Th rowSpan={2} ta="right">
            {t('table.percentage')}
          </Table.Th>
        </Table.Tr>
        <Table.Tr>
          <Table.Th ta="right">{t('table.sakit')}</Table.Th>
          <Table.Th ta="right">{t('table.izin')}</Table.Th>
          <Table.Th ta="right" title={t('table.alpaFull')}>
            {t('table.alpa')}
          </Table.Th>
          <Table.Th ta="right">{t('table.hadir')}</Table.Th>
          <Table.Th ta="right">{t('table.terlambat')}</Table.Th>
          <StatusHeads />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {recap.students.map((st, i) => {
          const d = st.day_counts;
          return (
            <Table.Tr key={st.id} data-testid={`recap-row-${st.id}`}>
              <Table.Td ta="right">{i + 1}</Table.Td>
              <StudentCell st={st} withNISN />
              <Num n={d.s} testId="erapor-sakit" />
              <Num n={d.i} testId="erapor-izin" />
              <Num n={d.a} testId="erapor-alpa" />
              <Num n={d.h} />
              <Num n={d.t} />
              <Num n={Math.max(0, recap.school_days - st.days_recorded)} testId="days-unrecorded" />
              <CountCells c={st.counts} kind="hours" />
              <Table.Td ta="right">
                <Pct value={st.percentage} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Scroll>
  );
}

/** Every class's line: size, student-days per day status, those not recorded, attendance % (hours). */
export function SchoolRecapTable({ recap, onOpen }: { recap: AttendanceSchoolRecap; onOpen: (classId: number) => void }) {
  const { t } = useTranslation('attendance-recap');
  const num = useFormatNumber();
  return (
    <Scroll label={t('school.label')} testId="school-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th style={sticky} rowSpan={2}>
            {t('school.class')}
          </Table.Th>
          <Table.Th ta="right" rowSpan={2}>
            {t('school.size')}
          </Table.Th>
          <Table.Th colSpan={5} style={group}>
            {recap.period === 'daily' ? t('school.studentsGroup') : t('school.daysGroup')}
          </Table.Th>
          <Table.Th ta="right" rowSpan={2}>
            {t('school.unrecorded')}
          </Table.Th>
          <Table.Th ta="right" rowSpan={2}>
            {t('table.percentage')}
          </Table.Th>
        </Table.Tr>
        <Table.Tr>
          <StatusHeads />
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
            <CountCells c={c.days} kind="days" />
            <Num n={c.days_unrecorded} testId="days-unrecorded" />
            <Table.Td ta="right">
              <Pct value={c.percentage} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Scroll>
  );
}

/**
 * The chips over a table: a day's students per day status, or a period's student-days, each
 * status and "belum" (nothing stored); they add up to the class (or to class × school days).
 */
export function ChipsSummary({ chips, perDay, size, schoolDays }: { chips: Chip[]; perDay: boolean; size: number; schoolDays?: number }) {
  const { t } = useTranslation('attendance-recap');
  const num = useFormatNumber();
  const total = chips.reduce((n, c) => n + c.n, 0);
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap" data-testid="recap-summary" data-total={total}>
        {chips.map((c) => (
          <Group key={c.key} gap={4} wrap="nowrap" data-testid={`summary-${c.key}`} data-count={c.n}>
            {c.key === 'belum' ? <Belum /> : <StatusBadge status={c.key} />}
            <Text size="sm">{perDay ? t('summaryStudents', { n: num(c.n) }) : t('summaryDays', { n: num(c.n) })}</Text>
          </Group>
        ))}
      </Group>
      <Text size="xs" c="dimmed" data-testid="summary-total">
        {perDay ? t('totalDay', { n: num(total) }) : t('totalPeriod', { size: num(size), days: num(schoolDays ?? 0), n: num(total) })}
      </Text>
    </Stack>
  );
}
