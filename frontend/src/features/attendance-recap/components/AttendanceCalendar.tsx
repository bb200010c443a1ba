import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Group, Loader, Paper, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { useFormatNumber } from '@/lib/numbers';
import { useAttendanceCalendar } from '../hooks';
import { monthGrid, shiftMonth } from '@/lib/months';
import { monthOf, todayISO } from '../periods';
import { CLASS_STATE_COLOURS, STATUS_COLOURS, isStatus } from '../statuses';
import { STATUSES, countOf, type AttendanceCalendarDay } from '../types';
import { StatusBadge } from './StatusBadge';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export interface AttendanceCalendarProps {
  /** A class's month (students per day status, complete/partial) or a student's (hours, day status). */
  kind: 'class' | 'student';
  id: number;
  /** The month shown first, YYYY-MM (default: this month in Jakarta). */
  month?: string;
  /** Called when the user moves to another month. */
  onMonthChange?: (month: string) => void;
}

/**
 * A month of attendance, Monday first. Each date with stored hours is coloured by its state
 * and is a button: its counts show in a tooltip and, once chosen, below the grid (also on a
 * phone, where there is no hover). Previous and next fetch only that month.
 */
export function AttendanceCalendar({ kind, id, month: initial, onMonthChange }: AttendanceCalendarProps) {
  const { t } = useTranslation('attendance-recap');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const [month, setMonth] = useState(initial ?? monthOf(todayISO()));
  const [chosen, setChosen] = useState<string | null>(null);
  useEffect(() => {
    if (initial) setMonth(initial);
  }, [initial]);
  const cal = useAttendanceCalendar(kind, id, month);
  const byDate = useMemo(() => new Map((cal.data?.month === month ? cal.data.days : []).map((d) => [d.date, d])), [cal.data, month]);
  const cells = useMemo(() => monthGrid(month), [month]);
  const today = todayISO();

  const go = (step: number) => {
    const m = shiftMonth(month, step);
    setMonth(m);
    setChosen(null);
    onMonthChange?.(m);
  };

  const describe = (d: AttendanceCalendarDay): string => {
    if (kind === 'student') {
      const parts = STATUSES.filter((s) => countOf(d.hours, s) > 0).map((s) => t('hoursOf', { count: countOf(d.hours, s), status: t(`status.${s}`) }));
      return parts.join(', ');
    }
    const parts = STATUSES.filter((s) => countOf(d.students, s) > 0).map((s) => t('studentsOf', { n: num(countOf(d.students, s)), status: t(`status.${s}`) }));
    return [t('recordedOf', { n: num(d.recorded), size: num(cal.data?.class_size ?? 0) }), ...parts].join(', ');
  };

  const colours = (d: AttendanceCalendarDay | undefined) => {
    if (!d) return { bg: 'transparent', fg: 'inherit', border: 'var(--mantine-color-gray-3)' };
    if (kind === 'student' && isStatus(d.state)) return STATUS_COLOURS[d.state];
    return CLASS_STATE_COLOURS[d.state] ?? CLASS_STATE_COLOURS.partial!;
  };

  const chosenDay = chosen ? byDate.get(chosen) : undefined;
  const monthLabel = fmt(`${month}-01`, 'date').replace(/^\d+\s/, '');

  return (
    <Paper withBorder p="sm" radius="md" data-testid={`attendance-calendar-${kind}`} data-month={month}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <ActionIcon variant="default" size={36} onClick={() => go(-1)} aria-label={t('calendar.prev')} data-testid="calendar-prev">
          <IconChevronLeft size={18} aria-hidden />
        </ActionIcon>
        <Group gap={6} wrap="nowrap">
          <Text fw={600} data-testid="calendar-month" aria-live="polite">
            {monthLabel}
          </Text>
          {cal.isFetching && <Loader size="xs" aria-label={tc('loading')} />}
        </Group>
        <ActionIcon variant="default" size={36} onClick={() => go(1)} aria-label={t('calendar.next')} data-testid="calendar-next">
          <IconChevronRight size={18} aria-hidden />
        </ActionIcon>
      </Group>
      {cal.isError && (
        <Alert color="red" mb="xs">
          {errorMessage(cal.error, tc)}
        </Alert>
      )}
      <div role="grid" aria-label={t('calendar.label', { month: monthLabel })} style={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))', gap: 4 }}>
        <div role="row" style={{ display: 'contents' }}>
          {WEEKDAYS.map((w) => (
            <Text key={w} role="columnheader" size="xs" c="dimmed" ta="center" fw={600}>
              {t(`weekday.${w}`)}
            </Text>
          ))}
        </div>
        {Array.from({ length: cells.length / 7 }, (_, week) => (
          <div role="row" key={week} style={{ display: 'contents' }}>
            {cells.slice(week * 7, week * 7 + 7).map((date, i) => {
              if (!date) return <div role="gridcell" key={`b${i}`} />;
              const d = byDate.get(date);
              const c = colours(d);
              const label = `${fmt(date, 'weekdayDate')}: ${d ? describe(d) : t('calendar.nothing')}`;
              const alpha = d ? (kind === 'class' ? d.students.a : d.hours.a) : 0;
              return (
                <div role="gridcell" key={date}>
                  <Tooltip label={d ? describe(d) : t('calendar.nothing')} events={{ hover: true, focus: true, touch: false }} multiline w={220} withinPortal>
                    <UnstyledButton
                      onClick={() => setChosen(date === chosen ? null : date)}
                      aria-label={label}
                      aria-pressed={date === chosen}
                      data-testid={`calendar-day-${date}`}
                      data-state={d?.state ?? ''}
                      style={{
                        width: '100%',
                        minHeight: 44,
                        borderRadius: 6,
                        background: c.bg,
                        color: c.fg,
                        border: `${date === chosen ? 2 : 1}px solid ${date === chosen ? 'var(--mantine-color-blue-7)' : c.border}`,
                        outlineOffset: 2,
                        padding: 2,
                        display: 'flex',
                        flexDirection: 'column',
                        alignItems: 'center',
                        justifyContent: 'center',
                        fontWeight: date === today ? 800 : 500,
                        textDecoration: date === today ? 'underline' : undefined,
                      }}
                    >
                      <span style={{ fontSize: 13 }}>{Number(date.slice(8))}</span>
                      {d && kind === 'student' && isStatus(d.state) && <span style={{ fontSize: 11, fontWeight: 700 }}>{d.state}</span>}
                      {d && kind === 'class' && alpha > 0 && <span style={{ fontSize: 11, fontWeight: 700, color: '#a51d1d' }}>A{alpha}</span>}
                    </UnstyledButton>
                  </Tooltip>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <Stack gap={4} mt="xs" aria-live="polite" data-testid="calendar-detail">
        {chosen && (
          <>
            <Text size="sm" fw={600}>
              {fmt(chosen, 'weekdayDate')}
            </Text>
            {chosenDay ? (
              <Group gap={6} wrap="wrap">
                {STATUSES.map((s) => {
                  const n = kind === 'class' ? countOf(chosenDay.students, s) : countOf(chosenDay.hours, s);
                  return n > 0 ? <StatusBadge key={s} status={s} count={n} /> : null;
                })}
                <Text size="xs" c="dimmed">
                  {describe(chosenDay)}
                </Text>
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                {t('calendar.nothing')}
              </Text>
            )}
          </>
        )}
      </Stack>
      <Group gap="sm" mt="xs" wrap="wrap">
        {kind === 'class' ? (
          <>
            <CalendarKey colour={CLASS_STATE_COLOURS.complete!} text={t('calendar.complete')} />
            <CalendarKey colour={CLASS_STATE_COLOURS.partial!} text={t('calendar.partial')} />
          </>
        ) : (
          <Text size="xs" c="dimmed">
            {t('calendar.worst')}
          </Text>
        )}
      </Group>
    </Paper>
  );
}

function CalendarKey({ colour, text }: { colour: { bg: string; border: string }; text: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <span style={{ width: 14, height: 14, borderRadius: 3, background: colour.bg, border: `1px solid ${colour.border}`, display: 'inline-block' }} aria-hidden />
      <Text size="xs">{text}</Text>
    </Group>
  );
}
