import { useTranslation } from 'react-i18next';
import { Group, Text } from '@mantine/core';
import { STATUS_COLOURS, letterOf } from '../statuses';
import { BELUM, STATUSES } from '../types';

const chip = { display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: 22, height: 20, borderRadius: 4, fontWeight: 700, fontSize: 12 } as const;

/** What the letters, colours and marks of the grid mean, and the keys it takes. */
export function Legend() {
  const { t } = useTranslation('attendance');
  return (
    <Group gap="md" wrap="wrap" data-testid="attendance-legend" aria-label={t('legend.label')}>
      {[...STATUSES, BELUM].map((s) => {
        const c = STATUS_COLOURS[s];
        return (
          <Group key={s} gap={4} wrap="nowrap">
            <span style={{ ...chip, background: c.bg, color: c.fg, border: `1px ${s === BELUM ? 'dashed' : 'solid'} ${c.border}` }} aria-hidden>
              {letterOf(s)}
            </span>
            <Text size="xs">{t(`status.${s}`)}</Text>
          </Group>
        );
      })}
      <Group gap={4} wrap="nowrap">
        <span style={{ width: 11, height: 11, borderRadius: '50%', background: '#e8590c', display: 'inline-block' }} aria-hidden />
        <Text size="xs">{t('legend.unsaved')}</Text>
      </Group>
      <Group gap={4} wrap="nowrap">
        <span style={{ width: 0, height: 0, borderLeft: '9px solid transparent', borderBottom: '9px solid #212529', display: 'inline-block' }} aria-hidden />
        <Text size="xs">{t('legend.journal')}</Text>
      </Group>
      <Group gap={4} wrap="nowrap">
        <span style={{ width: 7, height: 7, borderRadius: '50%', background: '#212529', display: 'inline-block' }} aria-hidden />
        <Text size="xs">{t('legend.kiosk')}</Text>
      </Group>
      <Text size="xs" c="dimmed" visibleFrom="sm">
        {t('legend.keys')}
      </Text>
    </Group>
  );
}
