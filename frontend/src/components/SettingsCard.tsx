import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { ViewOnlyNotice } from './ViewOnly';

export interface SettingsCardProps {
  title: string;
  description?: ReactNode;
  testId: string;
  /** Without it the card shows the view-only mark and no save button. */
  canEdit: boolean;
  /** What failed, above the fields (field errors sit at their fields). */
  error?: string | null;
  errorTestId?: string;
  /** With it the card is a form (named by its title) and the save button submits it. */
  onSubmit?: FormEventHandler<HTMLFormElement>;
  /** The save button (for those who may edit): disabled until something changed. */
  save: { testId: string; dirty: boolean; saving: boolean; label?: string; onClick?: () => void; minHeight?: number };
  /** Beside the save button (e.g. "changed on …"); shown to readers too when set. */
  note?: ReactNode;
  /** Where the save button sits: after the note ('between' puts the note left, the button right). */
  saveAlign?: 'start' | 'end' | 'between';
  children: ReactNode;
}

/**
 * One settings card: its title and what it sets, the view-only mark for readers, the error of
 * a failed save, the fields, and the save button. useSettingsForm gives the form behind it.
 */
export function SettingsCard({ title, description, testId, canEdit, error, errorTestId, onSubmit, save, note, saveAlign = 'start', children }: SettingsCardProps) {
  const { t } = useTranslation();
  const button = canEdit && (
    <Button type={onSubmit ? 'submit' : 'button'} onClick={save.onClick} loading={save.saving} disabled={!save.dirty} mih={save.minHeight} data-testid={save.testId}>
      {save.label ?? t('actions.save')}
    </Button>
  );
  const body = (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Title order={2} size="h4">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {!canEdit && <ViewOnlyNotice />}
      </Group>
      {error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" data-testid={errorTestId}>
          {error}
        </Alert>
      )}
      {children}
      {(button || note) &&
        (saveAlign === 'between' ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed">
              {note}
            </Text>
            {button}
          </Group>
        ) : (
          <Group gap="sm" justify={saveAlign === 'end' ? 'flex-end' : 'flex-start'}>
            {button}
            {note && (
              <Text size="xs" c="dimmed">
                {note}
              </Text>
            )}
          </Group>
        ))}
    </Stack>
  );
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid={testId}>
      {onSubmit ? (
        <form noValidate onSubmit={onSubmit} aria-label={title}>
          {body}
        </form>
      ) : (
        body
      )}
    </Card>
  );
}
