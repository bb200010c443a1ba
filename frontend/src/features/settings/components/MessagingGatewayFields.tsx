import { useTranslation } from 'react-i18next';
import type { UseFormReturnType } from '@mantine/form';
import { NumberInput, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { GATEWAY_KINDS, type GatewayKind } from '@/features/parent-messages/api';
import { BASE_URL_EXAMPLES, credentialsOf, DEFAULT_WEBHOOK_BODY, type MessagingFormValues, type SecretEdit } from '@/features/parent-messages/settingsForm';
import { MessagingSecretField } from './MessagingSecretField';

export interface SecretsState {
  token: SecretEdit;
  password: SecretEdit;
  tokenError: string | null;
  passwordError: string | null;
}

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** The gateway: its kind, address, credentials as the kind needs them, webhook body, timeout. */
export function MessagingGatewayFields({
  form,
  stored,
  secrets,
  setSecrets,
}: {
  form: UseFormReturnType<MessagingFormValues>;
  stored: { token: boolean; password: boolean };
  secrets: SecretsState;
  setSecrets: (s: SecretsState) => void;
}) {
  const { t } = useTranslation('settings');
  const kind = form.getValues().gateway.kind;
  const creds = credentialsOf(kind);
  return (
    <Stack gap="md">
      <Select
        label={t('messaging.gateway.kind')}
        description={kind ? t(`messaging.gateway.kindHint.${kind}`) : t('messaging.gateway.kindHint.none')}
        data={[
          ...GATEWAY_KINDS.map((k) => ({ value: k, label: t(`messaging.gateway.kinds.${k}`) })),
          { value: 'none', label: t('messaging.gateway.kinds.none') },
        ]}
        value={kind || 'none'}
        onChange={(v) => {
          const next = (v === 'none' || !v ? '' : v) as GatewayKind;
          form.setFieldValue('gateway.kind', next);
          if (next === 'webhook' && !form.getValues().gateway.webhook_body) form.setFieldValue('gateway.webhook_body', DEFAULT_WEBHOOK_BODY);
        }}
        allowDeselect={false}
        error={form.errors['gateway.kind']}
        data-testid="msg-kind"
      />
      {kind && (
        <>
          <TextInput
            label={t('messaging.gateway.baseUrl')}
            description={t('messaging.gateway.baseUrlHint', { url: BASE_URL_EXAMPLES[kind] })}
            placeholder={BASE_URL_EXAMPLES[kind]}
            autoComplete="off"
            spellCheck={false}
            required
            styles={mono}
            {...form.getInputProps('gateway.base_url')}
            data-testid="msg-base-url"
          />
          {creds === 'token' && (
            <MessagingSecretField
              label={t('messaging.gateway.token')}
              description={t(`messaging.gateway.tokenHint.${kind}`)}
              stored={stored.token}
              edit={secrets.token}
              onChange={(token) => setSecrets({ ...secrets, token, tokenError: null })}
              error={secrets.tokenError}
              required={kind !== 'webhook'}
              testId="msg-token"
            />
          )}
          {creds === 'basic' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('messaging.gateway.username')}
                description={t('messaging.gateway.basicHint')}
                autoComplete="off"
                spellCheck={false}
                {...form.getInputProps('gateway.username')}
                data-testid="msg-username"
              />
              <MessagingSecretField
                label={t('messaging.gateway.password')}
                stored={stored.password}
                edit={secrets.password}
                onChange={(password) => setSecrets({ ...secrets, password, passwordError: null })}
                error={secrets.passwordError}
                testId="msg-password"
              />
            </SimpleGrid>
          )}
          {kind === 'webhook' && (
            <Textarea
              label={t('messaging.gateway.webhookBody')}
              description={t('messaging.gateway.webhookBodyHint')}
              autosize
              minRows={3}
              styles={mono}
              spellCheck={false}
              {...form.getInputProps('gateway.webhook_body')}
              data-testid="msg-webhook-body"
            />
          )}
          <NumberInput
            label={t('messaging.gateway.timeout')}
            description={t('messaging.gateway.timeoutHint')}
            min={1}
            max={60}
            allowDecimal={false}
            clampBehavior="none"
            suffix={` ${t('messaging.gateway.seconds')}`}
            w={220}
            {...form.getInputProps('gateway.timeout_seconds')}
            data-testid="msg-timeout"
          />
        </>
      )}
    </Stack>
  );
}
