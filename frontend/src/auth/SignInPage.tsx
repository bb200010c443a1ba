import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { Alert, Box, Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconSchool } from '@tabler/icons-react';
import type { Me } from '@/api/types';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { TodayInJakarta } from '@/components/TodayInJakarta';
import { applyServerErrors } from '@/components/serverErrors';
import { usePublicSchool } from '@/features/settings/hooks';
import { authApi } from './api';
import { safeNext } from './RequireAuth';
import { meQueryKey } from './session';

interface SignInValues {
  username: string;
  password: string;
}

export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const qc = useQueryClient();
  const next = safeNext(params.get('next'));
  const [error, setError] = useState<string | null>(null);
  const school = usePublicSchool();

  const form = useForm<SignInValues>({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : t('validation.required')),
      password: (v) => (v ? null : t('validation.required')),
    },
  });

  const signIn = useMutation({
    mutationFn: (v: SignInValues) => authApi.login(v.username.trim(), v.password),
    onSuccess: (res) => {
      qc.clear();
      qc.setQueryData<Me>(meQueryKey, { user: res.user, permissions: res.permissions });
      navigate(next, { replace: true });
    },
    onError: (err) => {
      setError(applyServerErrors(form, err, t));
      form.setFieldValue('password', '');
    },
  });

  const cached = qc.getQueryData<Me>(meQueryKey);
  if (cached && !signIn.isPending) return <Navigate to={next} replace />;

  return (
    <Box bg="gray.0" mih="100vh">
      <Group justify="space-between" p="md">
        <TodayInJakarta />
        <LanguageSwitch />
      </Group>
      <Center px="md" pb="xl" mih="calc(100vh - 80px)">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={400}>
          <Stack gap="lg">
            <Stack gap={6} align="center">
              <ThemeIcon size={56} radius="xl" aria-hidden>
                <IconSchool size={32} />
              </ThemeIcon>
              <Title order={1} size="h2">
                {t('app.name')}
              </Title>
              {school.data?.name && (
                <Text fw={600} size="lg" ta="center" data-testid="sign-in-school">
                  {school.data.name}
                </Text>
              )}
              <Text c="dimmed" size="sm" ta="center">
                {t('signIn.subtitle')}
              </Text>
            </Stack>
            <form
              noValidate
              onSubmit={form.onSubmit((v) => {
                setError(null);
                signIn.mutate(v);
              })}
              aria-label={t('signIn.title')}
            >
              <Stack gap="md">
                {error && (
                  <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="sign-in-error">
                    {error}
                  </Alert>
                )}
                <TextInput
                  label={t('signIn.username')}
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  required
                  data-autofocus
                  autoFocus
                  {...form.getInputProps('username')}
                />
                <PasswordInput
                  label={t('signIn.password')}
                  autoComplete="current-password"
                  required
                  {...form.getInputProps('password')}
                />
                <Button type="submit" fullWidth loading={signIn.isPending}>
                  {t('signIn.submit')}
                </Button>
              </Stack>
            </form>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
