import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { User } from '@/api/types';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { MIN_PASSWORD_LENGTH } from '@/lib/passwords';
import { useResetPassword } from '../hooks';

interface Values {
  password: string;
  password_confirmation: string;
}

/** An admin sets a new password for someone else (never for oneself: that is the profile page). */
export function ResetPasswordModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const reset = useResetPassword();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { password: '', password_confirmation: '' },
    validate: {
      password: (v) => (v.length >= MIN_PASSWORD_LENGTH ? null : tc('validation.passwordMin', { min: MIN_PASSWORD_LENGTH })),
      password_confirmation: (v, values) => (v === values.password ? null : tc('validation.passwordMatch')),
    },
  });

  useEffect(() => {
    if (user) {
      form.reset();
      setError(null);
    }
    // reset when another user is chosen
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [user]);

  return (
    <Modal opened={!!user} onClose={onClose} title={t('reset.title')}>
      {user && (
        <form
          noValidate
          aria-label={t('reset.title')}
          onSubmit={form.onSubmit((v) => {
            setError(null);
            reset.mutate(
              { id: user.id, input: v },
              {
                onSuccess: () => {
                  notifySuccess(t('reset.done', { name: user.name }));
                  onClose();
                },
                onError: (err) => setError(applyServerErrors(form, err, tc)),
              },
            );
          })}
        >
          <Stack gap="md">
            <Text size="sm">{t('reset.intro', { name: user.name, username: user.username })}</Text>
            {error && (
              <Alert color="red" icon={<IconAlertCircle />} role="alert">
                {error}
              </Alert>
            )}
            <PasswordInput label={t('reset.password')} autoComplete="new-password" required data-autofocus {...form.getInputProps('password')} />
            <PasswordInput
              label={t('reset.confirm')}
              autoComplete="new-password"
              required
              {...form.getInputProps('password_confirmation')}
            />
            <List size="sm" c="dimmed" aria-label={t('reset.rules')}>
              <List.Item>{tc('validation.passwordMin', { min: MIN_PASSWORD_LENGTH })}</List.Item>
              <List.Item>{tc('validation.passwordMatchRule')}</List.Item>
              <List.Item>{t('reset.sessionsEnd')}</List.Item>
            </List>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {tc('actions.cancel')}
              </Button>
              <Button type="submit" loading={reset.isPending}>
                {t('reset.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
