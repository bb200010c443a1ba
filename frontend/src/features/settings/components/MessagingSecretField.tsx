import { useTranslation } from 'react-i18next';
import { Button, Group, PasswordInput, Text } from '@mantine/core';
import { IconArrowBackUp, IconTrash } from '@tabler/icons-react';
import type { SecretEdit } from '@/features/parent-messages/settingsForm';

/**
 * A write-only secret (token, password): never shown. When one is stored the empty input
 * keeps it ("Saved — leave empty to keep"), typing replaces it, and "Remove" clears it.
 */
export function MessagingSecretField({
  label,
  description,
  stored,
  edit,
  onChange,
  error,
  required,
  testId,
}: {
  label: string;
  description?: string;
  stored: boolean;
  edit: SecretEdit;
  onChange: (e: SecretEdit) => void;
  error?: string | null;
  required?: boolean;
  testId: string;
}) {
  const { t } = useTranslation('settings');
  if (edit.clear) {
    return (
      <div data-testid={`${testId}-cleared`}>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Group gap="sm" wrap="wrap" mt={4}>
          <Text size="sm" c="red.9">
            {t('messaging.secret.willClear')}
          </Text>
          <Button variant="subtle" size="compact-sm" leftSection={<IconArrowBackUp size={14} aria-hidden />} onClick={() => onChange({ value: '', clear: false })}>
            {t('messaging.secret.undoClear')}
          </Button>
        </Group>
        {error && (
          <Text size="xs" c="red.9" mt={4} role="alert">
            {error}
          </Text>
        )}
      </div>
    );
  }
  return (
    <PasswordInput
      label={label}
      description={description}
      placeholder={stored ? t('messaging.secret.kept') : t('messaging.secret.empty')}
      value={edit.value}
      onChange={(e) => onChange({ value: e.currentTarget.value, clear: false })}
      error={error}
      required={required && !stored}
      autoComplete="new-password"
      spellCheck={false}
      data-testid={testId}
      visibilityToggleButtonProps={{ 'aria-label': t('messaging.secret.toggle') }}
      inputContainer={(children) =>
        stored ? (
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
            <Button variant="default" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => onChange({ value: '', clear: true })} data-testid={`${testId}-clear`}>
              {t('messaging.secret.clear')}
            </Button>
          </Group>
        ) : (
          children
        )
      }
    />
  );
}
