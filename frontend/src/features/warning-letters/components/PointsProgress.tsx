import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { mantineColour } from '@/features/violation-types/grouping';
import { useFormatNumber } from '@/lib/numbers';
import { yearLabel } from '../academicYear';
import type { StudentPoints } from '../api';
import { levelName, pointsToNext, progressOf } from '../letters';
import { LevelBadge } from './LevelBadge';

export interface PointsProgressProps {
  points: StudentPoints;
  /** Smaller, one-line form for lists. */
  compact?: boolean;
  testId?: string;
}

/**
 * A student's standing toward warning letters: the level reached, this academic year's total,
 * a bar toward the next level with "N poin lagi menuju SP 2", and the lifetime total beside it.
 * Shared: the violation form and the letter list show it too.
 */
export function PointsProgress({ points, compact = false, testId = 'points-progress' }: PointsProgressProps) {
  const { t } = useTranslation('warning-letters');
  const num = useFormatNumber();
  const progress = progressOf(points);
  const toNext = pointsToNext(points);
  const nextName = points.next_level !== null ? levelName(points.next_level, points.next_level_name) : '';
  const barColour = points.level > 0 ? mantineColour(points.level_colour) : 'blue';

  const hint = progress.noLevels
    ? t('progress.noLevels')
    : progress.pastLast
      ? t('progress.pastLast', { level: levelName(points.level, points.level_name) })
      : t('progress.toNext', { count: toNext ?? 0, points: num(toNext ?? 0), level: nextName });

  const bar = (
    <Progress
      value={progress.percent}
      color={barColour}
      size={compact ? 'sm' : 'lg'}
      radius="xl"
      aria-label={t('progress.barLabel', { total: num(points.total), level: nextName || levelName(points.level, points.level_name) })}
      data-testid={`${testId}-bar`}
      data-percent={progress.percent}
      styles={{ root: { backgroundColor: 'var(--mantine-color-gray-3)' } }}
    />
  );

  if (compact) {
    return (
      <Stack gap={4} data-testid={testId} style={{ minWidth: 0 }}>
        <Group gap={6} wrap="nowrap">
          <LevelBadge level={points.level} name={points.level_name} colour={points.level_colour} size="sm" />
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {t('progress.points', { count: points.total, points: num(points.total) })}
          </Text>
        </Group>
        {bar}
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </Stack>
    );
  }

  return (
    <Stack gap="xs" data-testid={testId} style={{ minWidth: 0 }}>
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Group gap="sm" align="center" wrap="nowrap">
          <LevelBadge level={points.level} name={points.level_name} colour={points.level_colour} size="lg" testId={`${testId}-level`} />
          <Stack gap={0}>
            <Text size="xl" fw={700} lh={1.1} data-testid={`${testId}-total`}>
              {num(points.total)}
            </Text>
            <Text size="xs" c="dimmed" data-testid={`${testId}-year`}>
              {points.academic_year_start ? t('progress.yearTotal', { year: yearLabel(points.academic_year_start) }) : t('progress.thisYear')}
            </Text>
          </Stack>
        </Group>
        <Text size="sm" c="dimmed">
          <Text span size="md" fw={600} c="var(--mantine-color-text)" data-testid={`${testId}-lifetime`}>
            {num(points.lifetime_total)}
          </Text>{' '}
          {t('progress.lifetime')}
        </Text>
      </Group>
      {bar}
      <Text size="sm" data-testid={`${testId}-hint`}>
        {hint}
      </Text>
    </Stack>
  );
}
