import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useForm } from '@mantine/form';
import { Alert, Anchor, Button, Card, Divider, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import { IconAlertCircle } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { ViewOnlyNotice } from '@/components/ViewOnly';
import { useFormatDate } from '@/lib/useFormatDate';
import { useMessagingSettings, useSaveMessagingSettings } from '@/features/parent-messages/hooks';
import { paths as messagePaths } from '@/features/parent-messages/paths';
import {
  formFromSettings,
  gatewayPayload,
  isTime,
  KEEP,
  settingsPayload,
  splitFieldErrors,
  type MessagingFormValues,
} from '@/features/parent-messages/settingsForm';
import { MessagingEvents } from './MessagingEvents';
import { MessagingGatewayFields, type SecretsState } from './MessagingGatewayFields';
import { MessagingLeaveGuard } from './MessagingLeaveGuard';
import { MessagingTestPanel } from './MessagingTestPanel';
import { MessagingView } from './MessagingView';

const FALLBACK_PLACEHOLDERS = [
  'nama_siswa', 'nis', 'nisn', 'kelas', 'nama_orang_tua', 'jenis_pelanggaran', 'poin',
  'total_poin', 'level_sp', 'tanggal', 'tanggal_panggilan', 'nama_sekolah',
];

const NO_SECRETS: SecretsState = { token: KEEP, password: KEEP, tokenError: null, passwordError: null };

/**
 * Settings → Parent messaging: the WhatsApp gateway and its test, each event's switch and
 * template (previewed with a real student before saving), and the quiet hours. Read-only
 * for settings.view without settings.manage.
 */
export function MessagingSettings() {
  const { t } = useTranslation('settings');
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const stored = useMessagingSettings();
  if (!stored.data) return <PageLoader />;
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="messaging-section">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={2} size="h4">
              {t('messaging.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('messaging.description')}{' '}
              {can('parent_messages.view') && (
                <Anchor component={Link} to={messagePaths.log} size="sm" underline="always">
                  {t('messaging.openLog')}
                </Anchor>
              )}
            </Text>
          </div>
          {!canEdit && <ViewOnlyNotice />}
        </Group>
        {canEdit ? <MessagingForm /> : <MessagingView s={stored.data} />}
      </Stack>
    </Card>
  );
}

function MessagingForm() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const stored = useMessagingSettings();
  const save = useSaveMessagingSettings();
  const [secrets, setSecrets] = useState<SecretsState>(NO_SECRETS);
  const [error, setError] = useState<string | null>(null);
  const data = stored.data!;

  const form = useForm<MessagingFormValues>({
    initialValues: formFromSettings(data),
    validate: {
      quiet_hours: {
        from: (v, all) => (all.quietOn && !isTime(v) ? t('messaging.quiet.invalid') : null),
        to: (v, all) => (all.quietOn && !isTime(v) ? t('messaging.quiet.invalid') : null),
      },
    },
  });

  useEffect(() => {
    const v = formFromSettings(data);
    form.setValues(v);
    form.resetDirty(v);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [data]);

  const secretsTouched = secrets.token.clear || secrets.password.clear || !!secrets.token.value.trim() || !!secrets.password.value.trim();
  const dirty = form.isDirty() || secretsTouched;

  const submit = (v: MessagingFormValues) => {
    setError(null);
    save.mutate(settingsPayload(v, secrets.token, secrets.password), {
      onSuccess: () => {
        setSecrets(NO_SECRETS);
        notifySuccess(t('messaging.saved'));
      },
      onError: (err) => {
        if (isApiError(err) && err.hasFieldErrors) {
          const r = splitFieldErrors(err.fields);
          form.setErrors(r.form);
          setSecrets((s) => ({ ...s, tokenError: r.token ?? null, passwordError: r.password ?? null }));
          setError(r.rest.length > 0 ? r.rest.join(' ') : Object.keys(r.form).length + (r.token ? 1 : 0) + (r.password ? 1 : 0) > 0 ? t('messaging.fixFields') : null);
        } else setError(errorMessage(err, tc));
      },
    });
  };

  const values = form.getValues();
  return (
    <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('messaging.title')}>
      <MessagingLeaveGuard dirty={dirty && !save.isPending} />
      <Stack gap="lg">
        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="msg-error">
            {error}
          </Alert>
        )}
        <Stack gap="md">
          <Title order={3} size="h5">
            {t('messaging.gateway.title')}
          </Title>
          <MessagingGatewayFields form={form} stored={{ token: !!data.gateway.token_set, password: !!data.gateway.password_set }} secrets={secrets} setSecrets={setSecrets} />
          {values.gateway.kind && <MessagingTestPanel gateway={() => gatewayPayload(form.getValues().gateway, secrets.token, secrets.password)} />}
        </Stack>
        <Divider />
        <MessagingEvents form={form} placeholders={data.placeholders?.length ? data.placeholders : FALLBACK_PLACEHOLDERS} />
        <Divider />
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('messaging.quiet.title')}
          </Title>
          <Switch
            label={t('messaging.quiet.on')}
            description={t('messaging.quiet.hint')}
            {...form.getInputProps('quietOn', { type: 'checkbox' })}
            data-testid="msg-quiet-on"
          />
          {values.quietOn && (
            <Group gap="md" wrap="wrap">
              <TimePicker format="24h" label={t('messaging.quiet.from')} w={140} {...form.getInputProps('quiet_hours.from')} data-testid="msg-quiet-from" />
              <TimePicker format="24h" label={t('messaging.quiet.to')} w={140} {...form.getInputProps('quiet_hours.to')} data-testid="msg-quiet-to" />
            </Group>
          )}
        </Stack>
        <Group gap="sm">
          <Button type="submit" loading={save.isPending} disabled={!dirty} data-testid="msg-save">
            {tc('actions.save')}
          </Button>
          {dirty && (
            <Text size="xs" fw={500} data-testid="msg-unsaved">
              {t('messaging.unsaved')}
            </Text>
          )}
          {data.updated_at && !dirty && (
            <Text size="xs" c="dimmed">
              {t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })}
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}
