import { useTranslation } from 'react-i18next';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconArrowBackUp, IconDeviceFloppy } from '@tabler/icons-react';

/** Sticks to the bottom of the screen while there are unsaved changes: how many, Save, Discard. */
export function SaveBar({ count, saving, onSave, onDiscard }: { count: number; saving: boolean; onSave: () => void; onDiscard: () => void }) {
  const { t } = useTranslation('roles');
  if (count === 0) return null;
  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      mt="md"
      role="region"
      aria-label={t('saveBar')}
      data-testid="roles-save-bar"
      style={{ position: 'sticky', bottom: 'var(--mantine-spacing-sm)', zIndex: 5 }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" fw={600} aria-live="polite" data-testid="roles-unsaved-count">
          {t('unsaved', { count })}
        </Text>
        <Group gap="sm">
          <Button variant="default" leftSection={<IconArrowBackUp size={16} />} onClick={onDiscard} disabled={saving}>
            {t('discard')}
          </Button>
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={saving}>
            {t('saveAll')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
