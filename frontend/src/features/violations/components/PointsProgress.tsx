import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { mantineColour } from '@/features/violation-types/grouping';
import { useFormatNumber } from '@/lib/numbers';
import { progressPercent, type Standing } from '../preview';

/**
 * A student's standing toward warning letters as a bar: level reached, points, and points
 * to the next level. (The warning-letters feature has its own for its screens.)
 */
export function PointsProgress({ standing, label, testId }: { standing: Standing; label?: string; testId?: string }) {
  const { t } = useTranslation('violations');
  const num = useFormatNumber();
  const pct = progressPercent(standing);
  const colour = standing.level > 0 ? mantineColour(standing.levelColour || 'orange') : 'teal';
  return (
    <Stack gap={4} data-testid={testId} data-total={standing.total} data-level={standing.level}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {label ? `${label}: ` : ''}
          {t('points.total', { n: num(standing.total) })}
        </Text>
        <Badge variant="light" color={standing.level > 0 ? colour : 'gray'} style={{ textTransform: 'none' }}>
          {standing.level > 0 ? standing.levelName || t('points.level', { n: standing.level }) : t('points.noLevel')}
        </Badge>
      </Group>
      <Progress
        value={pct}
        color={colour}
        size="lg"
        radius="xl"
        aria-label={t('points.progressLabel', { total: num(standing.total), next: standing.next ? num(standing.next.min_points) : num(standing.total) })}
      />
      <Text size="xs" c="dimmed">
        {standing.next && standing.pointsToNext !== null
          ? t('points.toNext', { n: num(standing.pointsToNext), level: standing.next.name || t('points.level', { n: standing.next.level }) })
          : t('points.pastLast')}
      </Text>
    </Stack>
  );
}
