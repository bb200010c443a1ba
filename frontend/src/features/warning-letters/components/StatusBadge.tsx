import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LetterStatus } from '../api';

const COLOURS: Record<LetterStatus, string> = {
  draft: 'gray',
  printed: 'blue',
  signed: 'violet',
  delivered: 'teal',
  withdrawn: 'red',
};

/** A letter's status in the school's words (Draf, Dicetak, …); light, so text stays 4.5:1. */
export function StatusBadge({ status, testId }: { status: LetterStatus; testId?: string }) {
  const { t } = useTranslation('warning-letters');
  return (
    <Badge variant="light" color={COLOURS[status] ?? 'gray'} data-testid={testId} data-status={status}>
      {t(`status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
