import { useTranslation } from 'react-i18next';
import { Group, Text } from '@mantine/core';
import { useFormatNumber } from '@/lib/numbers';
import type { Summary } from '../grid';
import { STATUS_COLOURS } from '../statuses';
import { STATUSES } from '../types';

/** Unique students per status (a student with two A hours counts once), and who has nothing yet. */
export function SummaryLine({ summary, total }: { summary: Summary; total: number }) {
  const { t } = useTranslation('attendance');
  const num = useFormatNumber();
  return (
    <Group gap={6} wrap="wrap" data-testid="attendance-summary" aria-label={t('summary.label')}>
      <Text size="sm" fw={600} mr={4}>
        {t('summary.title', { n: num(total) })}
      </Text>
      {STATUSES.map((s) => {
        const c = STATUS_COLOURS[s];
        return (
          <Text
            key={s}
            size="sm"
            component="span"
            data-testid={`summary-${s}`}
            data-count={summary.students[s]}
            style={{ background: c.bg, color: c.fg, border: `1px solid ${c.border}`, borderRadius: 6, padding: '1px 8px', whiteSpace: 'nowrap' }}
          >
            <b>{s}</b> {t(`status.${s}`)}: {num(summary.students[s])}
          </Text>
        );
      })}
      <Text size="sm" component="span" c="dimmed" data-testid="summary-empty" data-count={summary.empty}>
        {t('summary.empty', { n: num(summary.empty) })}
      </Text>
    </Group>
  );
}
