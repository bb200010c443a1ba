import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { Alert, Badge, Button, Card, Group, List, PasswordInput, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { authApi, type ChangePasswordInput } from '@/auth/api';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { ViewOnlyField } from '@/components/ViewOnly';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { MIN_PASSWORD_LENGTH } from '@/lib/passwords';
import '@/app/pageStyles';

export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const { me } = useSession();
  const fmt = useFormatDate();
  const [error, setError] = useState<string | null>(null);

  const form = useForm<ChangePasswordInput>({
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: {
      current_password: (v) => (v ? null : tc('validation.required')),
      password: (v) => (v.length >= MIN_PASSWORD_LENGTH ? null : tc('validation.passwordMin', { min: MIN_PASSWORD_LENGTH })),
      password_confirmation: (v, values) => (v === values.password ? null : tc('validation.passwordMatch')),
    },
  });

  const change = useMutation({
    mutationFn: authApi.changePassword,
    onSuccess: () => {
      form.reset();
      notifySuccess(t('password.changed'));
    },
    onError: (err) => setError(applyServerErrors(form, err, tc)),
  });

  if (!me) return null;
  const u = me.user;
  return (
    <>
      <PageHeader title={t('title')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="md">
            {t('account')}
          </Title>
          <Stack gap="sm">
            {/* Account data is changed by an administrator: shown as text, not as locked inputs. */}
            <ViewOnlyField label={t('fields.name')} value={u.name} />
            <ViewOnlyField label={t('fields.username')} value={u.username} />
            <ViewOnlyField label={t('fields.role')} value={<Badge variant="light">{tc(`role.${u.role}`)}</Badge>} />
            <ViewOnlyField label={t('fields.email')} value={u.email} />
            <ViewOnlyField label={t('fields.phone')} value={u.phone} />
            <ViewOnlyField label={t('fields.lastLogin')} value={fmt(u.last_login_at, 'dateTime')} />
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="md">
            {t('password.title')}
          </Title>
          <form
            noValidate
            aria-label={t('password.title')}
            onSubmit={form.onSubmit((v) => {
              setError(null);
              change.mutate(v);
            })}
          >
            <Stack gap="md">
              {error && (
                <Alert color="red" icon={<IconAlertCircle />} role="alert">
                  {error}
                </Alert>
              )}
              <PasswordInput label={t('password.current')} autoComplete="current-password" required {...form.getInputProps('current_password')} />
              <PasswordInput label={t('password.new')} autoComplete="new-password" required {...form.getInputProps('password')} />
              <PasswordInput
                label={t('password.confirm')}
                autoComplete="new-password"
                required
                {...form.getInputProps('password_confirmation')}
              />
              <List size="sm" c="dimmed">
                <List.Item>{tc('validation.passwordMin', { min: MIN_PASSWORD_LENGTH })}</List.Item>
                <List.Item>{tc('validation.passwordMatchRule')}</List.Item>
                <List.Item>{t('password.otherSessions')}</List.Item>
              </List>
              <Group justify="flex-end">
                <Button type="submit" loading={change.isPending}>
                  {t('password.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      </SimpleGrid>
    </>
  );
}
