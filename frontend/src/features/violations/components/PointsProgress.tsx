import { Stack, Text } from '@mantine/core';
import { PointsProgress as LetterProgress } from '@/features/warning-letters/components/PointsProgress';
import type { StudentPoints } from '../types';

/**
 * A student's standing toward warning letters, drawn by the warning-letters feature's bar so
 * every screen shows it alike; the wrapper carries a label and the figures tests look for.
 */
export function PointsProgress({ points, label, testId }: { points: StudentPoints; label?: string; testId: string }) {
  return (
    <Stack gap={4} data-testid={testId} data-total={points.total} data-level={points.level}>
      {label && (
        <Text size="sm" fw={600}>
          {label}
        </Text>
      )}
      <LetterProgress points={points} compact testId={`${testId}-bar`} />
    </Stack>
  );
}
