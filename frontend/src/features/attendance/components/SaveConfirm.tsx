import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useFormatNumber } from '@/lib/numbers';
import type { AttendancePreview, LetterChange } from '../types';

/** "SP 1 Budi Santoso ditarik" (done) or "SP 1 Budi Santoso akan ditarik" (a preview). */
export function letterLine(l: LetterChange, t: (k: string, o: Record<string, string>) => string, preview = false): string {
  return t(`letters.${preview ? 'will' : 'did'}.${l.change}`, { name: l.name, student: l.student_name });
}

/**
 * Before a save changes what someone else set (the journal, a Face-ID kiosk, another person),
 * it says what will change: cells by who set them, automatic violations, and every warning
 * letter issued or withdrawn by name; nothing is stored until the teacher confirms.
 */
export function SaveConfirm({
  preview,
  saving,
  onConfirm,
  onCancel,
}: {
  preview: AttendancePreview | null;
  saving: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('attendance');
  const { t: tc } = useTranslation();
  const num = useFormatNumber();
  const p = preview;
  const line = (key: string, n: number, testId: string) =>
    n > 0 && (
      <List.Item data-testid={testId} data-count={n}>
        {t(`confirm.${key}`, { count: n, n: num(n) })}
      </List.Item>
    );
  return (
    <Modal
      opened={!!p}
      onClose={onCancel}
      title={t('confirm.title')}
      centered
      closeButtonProps={{ 'aria-label': tc('actions.cancel') }}
      data-testid="save-confirm"
    >
      {p && (
        <Stack gap="sm">
          <Text size="sm">{t('confirm.intro', { count: p.cells_changed, n: num(p.cells_changed) })}</Text>
          <List size="sm" spacing={4} data-testid="confirm-cells">
            {line('fromJournal', p.cells_from_journal, 'confirm-journal')}
            {line('fromKiosk', p.cells_from_kiosk, 'confirm-kiosk')}
            {line('fromOthers', p.cells_from_others, 'confirm-others')}
            {line('violationsRemoved', p.violations_removed, 'confirm-violations-removed')}
            {line('violationsCreated', p.violations_created, 'confirm-violations-created')}
            {line('violationsUpdated', p.violations_updated, 'confirm-violations-updated')}
          </List>
          {p.letters.length > 0 && (
            <Alert color="orange" p="xs" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('confirm.letters')} data-testid="confirm-letters">
              <List size="sm" spacing={2}>
                {p.letters.map((l) => (
                  <List.Item key={`${l.student_id}-${l.level}-${l.change}`} data-testid="confirm-letter" data-change={l.change}>
                    {letterLine(l, t, true)}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm" wrap="wrap">
            <Button variant="default" onClick={onCancel} data-testid="confirm-cancel">
              {t('confirm.back')}
            </Button>
            <Button color="orange.8" onClick={onConfirm} loading={saving} data-testid="confirm-save">
              {t('confirm.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
