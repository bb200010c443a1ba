import { useTranslation } from 'react-i18next';
import { Group, Text } from '@mantine/core';
import { STATUSES } from '../types';
import { Belum, StatusBadge } from './StatusBadge';

/** What the letters mean. */
export function Legend() {
  const { t } = useTranslation('attendance-recap');
  return (
    <Group gap="md" wrap="wrap" data-testid="recap-legend">
      {STATUSES.map((s) => (
        <Group key={s} gap={4} wrap="nowrap">
          <StatusBadge status={s} />
          <Text size="xs">{t(`status.${s}`)}</Text>
        </Group>
      ))}
      <Group gap={4} wrap="nowrap">
        <Belum />
        <Text size="xs">{t('belum')}</Text>
      </Group>
    </Group>
  );
}
