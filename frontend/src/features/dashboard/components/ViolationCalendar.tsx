import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Anchor, Badge, Group, Loader, Paper, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { useFormatNumber } from '@/lib/numbers';
import { DAY_LIST_SIZE, useDayViolations, useViolationCalendar } from '../calendarQueries';
import { monthGrid, shiftMonth } from '@/lib/months';
import { intensity } from '../months';
import type { Source } from '@/features/violation-source/source';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** Background and text per intensity step: light to dark red; the number is always written too. */
// Each pair keeps 4.5:1 (WCAG AA): dark text on the light steps, white only on red-9.
const SHADES = [
  { bg: 'transparent', fg: 'inherit' },
  { bg: 'var(--mantine-color-red-1)', fg: 'var(--mantine-color-gray-9)' },
  { bg: 'var(--mantine-color-red-3)', fg: 'var(--mantine-color-gray-9)' },
  { bg: 'var(--mantine-color-red-5)', fg: '#000' },
  { bg: 'var(--mantine-color-red-9)', fg: '#fff' },
] as const;

/**
 * The violation calendar: a month, Monday first, each day with violations shaded by how many
 * (and the number written). Previous and next fetch only that month. Choosing a day lists
 * that day's violations below, each linked, with a link to the day's full list.
 */
export function ViolationCalendar({ today, source }: { today: string; source: Source }) {
  const { t } = useTranslation('dashboard');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const [month, setMonth] = useState(today.slice(0, 7));
  const [chosen, setChosen] = useState<string | null>(null);
  const cal = useViolationCalendar(month, source);
  const shown = cal.data?.month === month && cal.data.source === source ? cal.data : undefined;
  const byDate = useMemo(() => new Map((shown?.days ?? []).map((d) => [d.date, d])), [shown]);
  const cells = useMemo(() => monthGrid(month), [month]);
  const day = useDayViolations(chosen, source);
  const monthLabel = fmt(`${month}-01`, 'date').replace(/^\d+\s/, '');

  const go = (step: number) => {
    setMonth(shiftMonth(month, step));
    setChosen(null);
  };
  const chosenDay = chosen ? byDate.get(chosen) : undefined;

  return (
    <Paper withBorder p="sm" radius="md" data-testid="violation-calendar" data-month={month}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <ActionIcon variant="default" size={36} onClick={() => go(-1)} aria-label={t('calendar.prev')} data-testid="vcal-prev">
          <IconChevronLeft size={18} aria-hidden />
        </ActionIcon>
        <Stack gap={0} align="center">
          <Group gap={6} wrap="nowrap">
            <Text fw={600} data-testid="vcal-month" aria-live="polite">
              {monthLabel}
            </Text>
            {cal.isFetching && <Loader size="xs" aria-label={tc('loading')} />}
          </Group>
          {shown && (
            <Text size="xs" c="dimmed" data-testid="vcal-total">
              {t('calendar.total', { n: num(shown.total) })}
            </Text>
          )}
        </Stack>
        <ActionIcon variant="default" size={36} onClick={() => go(1)} aria-label={t('calendar.next')} data-testid="vcal-next">
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
              const n = d?.count ?? 0;
              const shade = SHADES[intensity(n, shown?.max ?? 0)];
              return (
                <div role="gridcell" key={date}>
                  <UnstyledButton
                    onClick={() => setChosen(date === chosen ? null : date)}
                    aria-pressed={date === chosen}
                    data-testid={`vcal-day-${date}`}
                    data-count={n}
                    style={{
                      width: '100%',
                      minHeight: 44,
                      borderRadius: 6,
                      background: shade.bg,
                      color: shade.fg,
                      border: `${date === chosen ? 2 : 1}px solid ${date === chosen ? 'var(--mantine-color-blue-7)' : 'var(--mantine-color-gray-3)'}`,
                      padding: 2,
                      display: 'flex',
                      flexDirection: 'column',
                      alignItems: 'center',
                      justifyContent: 'center',
                      fontWeight: date === today ? 800 : 500,
                      textDecoration: date === today ? 'underline' : undefined,
                    }}
                  >
                    {/* Named by its text (the visible day first), not an aria-label the visible text is not part of. */}
                    <span style={{ fontSize: 12 }}>{Number(date.slice(8))}</span>
                    <VisuallyHidden>{`, ${fmt(date, 'weekdayDate')}: ${t('calendar.count', { count: n, n: num(n) })}`}</VisuallyHidden>
                    {n > 0 && (
                      <span aria-hidden="true" style={{ fontSize: 12, fontWeight: 700 }}>
                        {num(n)}
                      </span>
                    )}
                  </UnstyledButton>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <Stack gap={6} mt="sm" aria-live="polite" data-testid="vcal-detail">
        {chosen && (
          <>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" fw={600}>
                {fmt(chosen, 'weekdayDate')} · {t('calendar.count', { count: chosenDay?.count ?? 0, n: num(chosenDay?.count ?? 0) })}
              </Text>
              {chosenDay && (
                <Anchor component={Link} to={chosenDay.link} size="sm" data-testid="vcal-day-link">
                  {t('calendar.openList')}
                </Anchor>
              )}
            </Group>
            {day.isPending && chosenDay && <Loader size="sm" aria-label={tc('loading')} />}
            {day.isError && <Alert color="red">{errorMessage(day.error, tc)}</Alert>}
            {day.data && day.data.data.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('calendar.none')}
              </Text>
            )}
            {day.data?.data.map((v) => (
              <Group key={v.id} gap="xs" wrap="nowrap" justify="space-between" data-testid="vcal-violation">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={`/violations/${v.id}`} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {v.student_name}
                  </Anchor>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {v.class_name} · {v.type_name} · {fmt(v.occurred_at, 'time')}
                  </Text>
                </Stack>
                <Badge variant="light" color="red" style={{ flexShrink: 0 }}>
                  {t('points', { n: num(v.points) })}
                </Badge>
              </Group>
            ))}
            {chosenDay && chosenDay.count > DAY_LIST_SIZE && (
              <Text size="xs" c="dimmed">
                {t('calendar.more', { n: num(DAY_LIST_SIZE), total: num(chosenDay.count) })}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
