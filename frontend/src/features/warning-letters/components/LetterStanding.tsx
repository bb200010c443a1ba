import { useTranslation } from 'react-i18next';
import { Alert, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useFormatDate } from '@/lib/useFormatDate';
import type { WarningLetter } from '../api';
import { levelName } from '../letters';
import { levelsOf } from '../sending';

/**
 * What a letter stands for: the levels it covers when it was raised ("SP 1–2"), and, for a
 * delivered letter, that the student's total has since fallen below it (it stays as it went out).
 */
export function LetterStanding({ letter }: { letter: WarningLetter }) {
  const { t } = useTranslation('warning-letters');
  const fmt = useFormatDate();
  const levels = levelsOf(letter);
  return (
    <>
      {levels.length > 1 && (
        <Text size="sm" data-testid="letter-levels">
          {t('standing.covers', { name: levelName(letter.level, letter.name), levels: levels.join(', ') })}
        </Text>
      )}
      {letter.total_fallen && (
        <Alert color="yellow" icon={<IconInfoCircle />} title={t('standing.fallenTitle')} data-testid="letter-fallen">
          {t('standing.fallenBody', { date: letter.total_fallen_at ? fmt(letter.total_fallen_at, 'date') : '' })}
        </Alert>
      )}
    </>
  );
}
