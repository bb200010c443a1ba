import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Center, Code, Drawer, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { ViewOnlyList } from '@/components/ViewOnly';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { letterPath } from '@/features/warning-letters/paths';
import type { ParentMessageDetail } from '../api';
import { actionsFor, prettyAnswer } from '../display';
import { useCancelMessage, useParentMessage, useRetryMessage } from '../hooks';
import { OutcomeBadge, StatusBadge } from './Badges';
import { PhoneText } from './PhoneText';

/** One message: its full text, where it stands, every answer of the gateway, and retry / cancel. */
export function MessageDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('parent-messages');
  const { t: tc } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const q = useParentMessage(id);
  const m = q.data;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={m ? t('detail.title', { name: m.student_name }) : t('title')}
      closeButtonProps={{ 'aria-label': tc('actions.close') }}
      data-testid="pm-drawer"
    >
      {q.isError ? (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {errorMessage(q.error, tc)}
        </Alert>
      ) : !m || m.id !== id ? (
        <Center p="xl">
          <Loader aria-label={tc('loading')} />
        </Center>
      ) : (
        <Detail m={m} onDone={onClose} />
      )}
    </Drawer>
  );
}

function Detail({ m }: { m: ParentMessageDetail; onDone: () => void }) {
  const { t } = useTranslation('parent-messages');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const manage = can('parent_messages.manage');
  const retry = useRetryMessage();
  const cancel = useCancelMessage();
  const [error, setError] = useState<string | null>(null);
  const allowed = actionsFor(m.status);
  const run = (mut: typeof retry, done: string) => {
    setError(null);
    mut.mutate(m.id, { onSuccess: () => notifySuccess(done), onError: (err) => setError(errorMessage(err, tc)) });
  };
  const source = m.violation_id ? `/violations/${m.violation_id}` : m.letter_id ? letterPath(m.letter_id) : null;

  return (
    <Stack gap="md" data-testid="pm-detail" data-status={m.status}>
      <Group gap="xs" wrap="wrap">
        <StatusBadge status={m.status} />
        <Text size="sm">{t(`event.${m.event}`)}</Text>
      </Group>
      {m.status === 'skipped' && m.skip_reason && (
        <Alert color="orange" icon={<IconAlertCircle />}>
          {t(`skip.${m.skip_reason}`)}
        </Alert>
      )}
      {error && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="pm-action-error">
          {error}
        </Alert>
      )}
      {manage && (allowed.retry || allowed.cancel) && (
        <Group gap="sm">
          {allowed.retry && (
            <Button leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => run(retry, t('retried'))} loading={retry.isPending} data-testid="pm-retry">
              {t('retry')}
            </Button>
          )}
          {allowed.cancel && (
            <Button variant="default" color="red" leftSection={<IconPlayerStop size={16} aria-hidden />} onClick={() => run(cancel, t('cancelled'))} loading={cancel.isPending} data-testid="pm-cancel">
              {t('cancel')}
            </Button>
          )}
        </Group>
      )}
      <div>
        <Text size="sm" c="dimmed" fw={500} mb={4}>
          {t('fields.message')}
        </Text>
        <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="pm-body">
            {m.body}
          </Text>
        </Paper>
      </div>
      <ViewOnlyList
        fields={[
          {
            label: t('fields.student'),
            value: (
              <Anchor component={Link} to={`/students/${m.student_id}`}>
                {m.student_name}
              </Anchor>
            ),
          },
          { label: t('fields.class'), value: m.class_name || t('noClass') },
          { label: t('fields.parent'), value: m.parent_name },
          { label: t('fields.phone'), value: <PhoneText m={m} size="md" /> },
          { label: t('fields.createdAt'), value: fmt(m.created_at, 'dateTimeSeconds') },
          m.sent_at
            ? { label: t('fields.sentAt'), value: fmt(m.sent_at, 'dateTimeSeconds') }
            : { label: t('fields.nextAttempt'), value: m.status === 'queued' && m.next_attempt_at ? fmt(m.next_attempt_at, 'dateTimeSeconds') : '' },
          { label: t('fields.attempts'), value: num(m.attempts) },
          { label: t('fields.gatewayId'), value: m.gateway_message_id },
        ]}
      />
      {source && (
        <Anchor component={Link} to={source} size="sm">
          {t('detail.openSource')}
        </Anchor>
      )}
      <div>
        <Title order={3} size="h5" mb="xs">
          {t('detail.attemptLog')}
        </Title>
        {m.attempt_log.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('detail.noAttempts')}
          </Text>
        ) : (
          <Stack gap="sm" data-testid="pm-attempts">
            {m.attempt_log.map((a) => (
              <Paper key={a.id} withBorder p="sm" data-testid="pm-attempt" data-outcome={a.outcome}>
                <Group justify="space-between" gap="xs" wrap="wrap" mb={4}>
                  <Text size="sm" fw={500}>
                    {fmt(a.attempted_at, 'dateTimeSeconds')}
                  </Text>
                  <OutcomeBadge outcome={a.outcome} />
                </Group>
                <Text size="xs" c="dimmed" mb={4}>
                  {[a.http_status ? `${t('fields.httpStatus')} ${a.http_status}` : null, `${t('fields.duration')} ${num(a.duration_ms)} ms`, a.gateway]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
                {a.answer && (
                  <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 240, overflow: 'auto' }}>
                    {prettyAnswer(a.answer)}
                  </Code>
                )}
              </Paper>
            ))}
          </Stack>
        )}
      </div>
    </Stack>
  );
}
