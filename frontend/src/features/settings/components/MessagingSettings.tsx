import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Divider, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { errorMessage } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useSettingsForm } from '@/components/useSettingsForm';
import { useFormatDate } from '@/lib/useFormatDate';
import type { MessagingSettings as StoredSettings } from '@/features/parent-messages/api';
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
  const description = (
    <>
      {t('messaging.description')}{' '}
      {can('parent_messages.view') && (
        <Anchor component={Link} to={messagePaths.log} size="sm" underline="always">
          {t('messaging.openLog')}
        </Anchor>
      )}
    </>
  );
  if (canEdit) return <MessagingForm data={stored.data} description={description} />;
  return (
    <SettingsCard title={t('messaging.title')} description={description} testId="messaging-section" canEdit={false} save={{ testId: 'msg-save', dirty: false, saving: false }}>
      <MessagingView s={stored.data} />
    </SettingsCard>
  );
}

function MessagingForm({ data, description }: { data: StoredSettings; description: ReactNode }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const save = useSaveMessagingSettings();
  const [secrets, setSecrets] = useState<SecretsState>(NO_SECRETS);
  const secretsTouched = secrets.token.clear || secrets.password.clear || !!secrets.token.value.trim() || !!secrets.password.value.trim();

  const { form, error, onSubmit, dirty, saving } = useSettingsForm({
    data,
    toValues: formFromSettings,
    initialValues: formFromSettings(data),
    validate: {
      quiet_hours: {
        from: (v, all) => (all.quietOn && !isTime(v) ? t('messaging.quiet.invalid') : null),
        to: (v, all) => (all.quietOn && !isTime(v) ? t('messaging.quiet.invalid') : null),
      },
    },
    save,
    payload: (v: MessagingFormValues) => settingsPayload(v, secrets.token, secrets.password),
    saved: t('messaging.saved'),
    onSaved: () => setSecrets(NO_SECRETS),
    // The secrets are no form fields: their errors sit at their own inputs.
    onError: (err, f) => {
      if (!isApiError(err) || !err.hasFieldErrors) return errorMessage(err, tc);
      const r = splitFieldErrors(err.fields);
      f.setErrors(r.form);
      setSecrets((s) => ({ ...s, tokenError: r.token ?? null, passwordError: r.password ?? null }));
      return r.rest.length > 0 ? r.rest.join(' ') : Object.keys(r.form).length + (r.token ? 1 : 0) + (r.password ? 1 : 0) > 0 ? t('messaging.fixFields') : null;
    },
    alsoDirty: secretsTouched,
  });

  const values = form.getValues();
  return (
    <SettingsCard
      title={t('messaging.title')}
      description={description}
      testId="messaging-section"
      canEdit
      error={error}
      errorTestId="msg-error"
      onSubmit={onSubmit}
      save={{ testId: 'msg-save', dirty, saving }}
      note={
        dirty ? (
          <Text span size="xs" fw={500} c="var(--mantine-color-text)" data-testid="msg-unsaved">
            {t('messaging.unsaved')}
          </Text>
        ) : data.updated_at ? (
          t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })
        ) : undefined
      }
    >
      <MessagingLeaveGuard dirty={dirty && !saving} />
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
    </SettingsCard>
  );
}
