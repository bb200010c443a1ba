import { Group, Stack } from '@mantine/core';
import type { WarningLetter } from '../api';
import { PdfButton, StepButton } from './LetterActions';

/** A row's actions: the PDF and the next status step; stacked full-width on phones. */
export function LetterActionsCell({ letter, stacked = false }: { letter: WarningLetter; stacked?: boolean }) {
  if (stacked) {
    return (
      <Stack gap="xs">
        <PdfButton letter={letter} fullWidth />
        <StepButton letter={letter} fullWidth />
      </Stack>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <PdfButton letter={letter} />
      <StepButton letter={letter} />
    </Group>
  );
}
