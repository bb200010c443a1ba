import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Box, Button, Center, Group, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconDeviceTablet } from '@tabler/icons-react';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { TodayInJakarta } from '@/components/TodayInJakarta';
import { errorMessage } from '@/components/serverErrors';
import { kioskApi, looksLikeToken, type KioskInfo } from './api';
import { kioskFailure } from './logic';

/**
 * Pairing: the kiosk token from Settings → Face-ID, checked with GET /face/kiosk before it is
 * kept on this device.
 */
export function PairForm({
  notice,
  initialToken,
  onPaired,
}: {
  /** Why the kiosk is back here (its token was revoked). */
  notice: string | null;
  initialToken: string;
  onPaired: (token: string, info: KioskInfo) => void;
}) {
  const { t } = useTranslation('face');
  const { t: tc } = useTranslation();
  const [value, setValue] = useState(initialToken);
  const [fieldError, setFieldError] = useState<string | null>(initialToken ? t('kiosk.badToken') : null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const token = value.trim();
    setError(null);
    if (!looksLikeToken(token)) {
      setFieldError(t('kiosk.badToken'));
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      const info = await kioskApi.info(token);
      onPaired(token, info);
    } catch (err) {
      const f = kioskFailure(err);
      if (f === 'revoked') setFieldError((err as Error).message || t('kiosk.rejected'));
      else if (f === 'network') setError(t('kiosk.unreachable'));
      else setError(errorMessage(err, tc));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box bg="gray.0" mih="100dvh">
      <Group justify="space-between" p="md">
        <TodayInJakarta />
        <LanguageSwitch size="sm" />
      </Group>
      <Center px="md" pb="xl" mih="calc(100dvh - 80px)">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={640}>
          <form onSubmit={(e) => void submit(e)} noValidate data-testid="kiosk-pair">
            <Stack gap="lg">
              <Stack gap={6} align="center">
                <ThemeIcon size={64} radius="xl" aria-hidden>
                  <IconDeviceTablet size={36} />
                </ThemeIcon>
                <Title order={1} size="h1" ta="center">
                  {t('kiosk.pairTitle')}
                </Title>
                <Text size="lg" c="dimmed" ta="center">
                  {t('kiosk.pairExplain')}
                </Text>
              </Stack>
              {notice && (
                <Alert color="orange" icon={<IconAlertCircle />} role="alert" data-testid="kiosk-pair-notice">
                  <Text size="md">{notice}</Text>
                </Alert>
              )}
              <TextInput
                size="xl"
                label={t('kiosk.token')}
                placeholder="kiosk_…"
                value={value}
                onChange={(e) => {
                  setValue(e.currentTarget.value);
                  setFieldError(null);
                }}
                error={fieldError}
                autoComplete="off"
                autoCapitalize="off"
                autoCorrect="off"
                spellCheck={false}
                autoFocus
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-lg)' } }}
                data-testid="kiosk-token"
              />
              {error && (
                <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="kiosk-pair-error">
                  {error}
                </Alert>
              )}
              <Button type="submit" size="xl" loading={busy} data-testid="kiosk-pair-submit">
                {t('kiosk.pair')}
              </Button>
              <Text size="sm" c="dimmed" ta="center">
                {t('kiosk.noPhoto')}
              </Text>
            </Stack>
          </form>
        </Paper>
      </Center>
    </Box>
  );
}
