import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Code, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconSend } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { ViewOnlyField } from '@/components/ViewOnly';
import type { MessagingGateway, MessagingTestResult } from '@/features/parent-messages/api';
import { outcomeColor, prettyAnswer } from '@/features/parent-messages/display';
import { useTestMessaging } from '@/features/parent-messages/hooks';
import { useFormatNumber } from '@/lib/numbers';

/**
 * "Send a test message" through the gateway as the form shows it (saved or not) and exactly
 * what the gateway answered: the outcome, the HTTP status, the raw answer, its message id.
 */
export function MessagingTestPanel({ gateway }: { gateway: () => MessagingGateway }) {
  const { t } = useTranslation('settings');
  const { t: tp } = useTranslation('parent-messages');
  const { t: tc } = useTranslation();
  const num = useFormatNumber();
  const test = useTestMessaging();
  const [phone, setPhone] = useState('');
  const [result, setResult] = useState<MessagingTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);

  const run = () => {
    setResult(null);
    setError(null);
    setPhoneError(null);
    test.mutate(
      { phone: phone.trim(), gateway: gateway() },
      {
        onSuccess: setResult,
        onError: (err) => {
          const fields = (err as { fields?: Record<string, string> }).fields ?? {};
          if (fields.phone) setPhoneError(fields.phone);
          const rest = Object.entries(fields).filter(([k]) => k !== 'phone');
          setError(fields.phone && rest.length === 0 ? null : rest.length > 0 ? rest.map(([, v]) => v).join(' ') : errorMessage(err, tc));
        },
      },
    );
  };

  return (
    <Stack gap="sm" data-testid="msg-test">
      <Title order={3} size="h5">
        {t('messaging.test.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('messaging.test.description')}
      </Text>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <TextInput
          label={t('messaging.test.phone')}
          placeholder="0812 3456 7890"
          type="tel"
          inputMode="tel"
          value={phone}
          onChange={(e) => {
            setPhone(e.currentTarget.value);
            setPhoneError(null);
          }}
          error={phoneError}
          style={{ flex: '1 1 200px' }}
          data-testid="msg-test-phone"
        />
        <Button leftSection={<IconSend size={16} aria-hidden />} onClick={run} loading={test.isPending} disabled={!phone.trim()} mt={25} data-testid="msg-test-send">
          {t('messaging.test.send')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="msg-test-error">
          {error}
        </Alert>
      )}
      {result && (
        <Stack gap="sm" p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }} data-testid="msg-test-result" data-outcome={result.outcome}>
          <Group gap="sm" wrap="wrap">
            <Badge color={outcomeColor[result.outcome] ?? 'gray'} variant="light" size="lg" style={{ textTransform: 'none' }} data-testid="msg-test-outcome">
              {tp(`outcome.${result.outcome}`)}
            </Badge>
            <Text size="sm" data-testid="msg-test-summary">
              {result.summary}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <ViewOnlyField label={t('messaging.test.to')} value={result.phone} />
            <ViewOnlyField label={tp('fields.httpStatus')} value={result.http_status ? <span data-testid="msg-test-http">{result.http_status}</span> : ''} />
            <ViewOnlyField label={tp('fields.gatewayId')} value={result.message_id ? <span data-testid="msg-test-id">{result.message_id}</span> : ''} />
            <ViewOnlyField label={tp('fields.duration')} value={`${num(result.duration_ms)} ms`} />
          </SimpleGrid>
          <div>
            <Text size="sm" c="dimmed" fw={500} mb={4}>
              {tp('fields.answer')}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 300, overflow: 'auto' }} data-testid="msg-test-answer">
              {result.answer ? prettyAnswer(result.answer) : '—'}
            </Code>
          </div>
        </Stack>
      )}
    </Stack>
  );
}
