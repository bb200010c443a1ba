import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  List,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconAlertTriangle, IconCheck, IconCopy, IconDeviceTablet, IconPlus } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { useFormatDate } from '@/lib/useFormatDate';
import type { Kiosk, KioskCreated } from '@/features/face-scans/api';
import { useCreateKiosk, useKiosks, useRevokeKiosk } from '@/features/face-scans/hooks';

const NAME_MAX = 80;
const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

function Copy({ value, testId }: { value: string; testId?: string }) {
  const { t } = useTranslation('settings');
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('face.kiosks.copied') : t('face.kiosks.copy')} withArrow>
          <ActionIcon
            variant="light"
            size={44}
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={t('face.kiosks.copy')}
            data-testid={testId}
          >
            {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** "kiosk_AbCd…": which token a row is, never the token itself. */
function Hint({ k }: { k: Kiosk }) {
  return (
    <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {k.token_hint ? `${k.token_hint}…` : '—'}
    </Text>
  );
}

/** A kiosk that matched two students faster than people can step up to a camera (issue 25). */
function AlarmBadge({ k }: { k: Kiosk }) {
  const { t } = useTranslation('settings');
  const fmt = useFormatDate();
  if (!k.alarm_count || !k.alarm_at) return null;
  return (
    <Tooltip label={t('face.kiosks.alarmHint')} multiline w={280} withArrow>
      <Badge color="red" variant="light" data-testid={`kiosk-alarm-${k.id}`} style={{ cursor: 'help' }}>
        {t('face.kiosks.alarm', { count: k.alarm_count, at: fmt(k.alarm_at, 'dateTime') })}
      </Badge>
    </Tooltip>
  );
}

function StatusBadge({ k }: { k: Kiosk }) {
  const { t } = useTranslation('settings');
  return k.revoked_at ? (
    <Badge color="gray" variant="light" data-testid={`kiosk-status-${k.id}`} data-state="revoked">
      {t('face.kiosks.revoked')}
    </Badge>
  ) : (
    <Badge color="teal" variant="light" data-testid={`kiosk-status-${k.id}`} data-state="active">
      {t('face.kiosks.active')}
    </Badge>
  );
}

/**
 * Settings → Face-ID → Gate kiosks: the devices at the gate, each signed in with its own token
 * (shown once, when created), revoked here when a tablet is lost or replaced.
 */
export function FaceKiosks() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const kiosks = useKiosks();
  const create = useCreateKiosk();
  const revoke = useRevokeKiosk();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<KioskCreated | null>(null);
  const [revoking, setRevoking] = useState<Kiosk | null>(null);

  if (!kiosks.data) return <PageLoader />;
  const list = kiosks.data.data ?? [];
  const kioskUrl = `${window.location.origin}/kiosk`;

  const submit = () => {
    setError(null);
    const n = name.trim();
    if (!n) return setNameError(tc('validation.required'));
    if (n.length > NAME_MAX) return setNameError(t('face.kiosks.nameTooLong', { max: NAME_MAX }));
    setNameError(null);
    create.mutate(n, {
      onSuccess: (k) => {
        setCreated(k);
        setName('');
      },
      onError: (err) => {
        if (isApiError(err) && err.fields.name) setNameError(err.fields.name);
        else setError(errorMessage(err, tc));
      },
    });
  };

  const runRevoke = () => {
    if (!revoking) return;
    const k = revoking;
    revoke.mutate(k.id, {
      onSuccess: () => {
        setRevoking(null);
        if (created?.id === k.id) setCreated(null);
        notifySuccess(t('face.kiosks.revokedDone', { name: k.name }));
      },
      onError: (err) => {
        setRevoking(null);
        setError(errorMessage(err, tc));
      },
    });
  };

  const lastSeen = (k: Kiosk) => (k.last_seen_at ? fmt(k.last_seen_at, 'dateTime') : t('face.kiosks.neverSeen'));
  const createdLine = (k: Kiosk) => t('face.kiosks.createdBy', { at: fmt(k.created_at, 'dateTime'), by: k.created_by_name || '—' });
  const revokeButton = (k: Kiosk) =>
    !k.revoked_at && (
      <Button variant="default" color="red" mih={44} onClick={() => setRevoking(k)} data-testid={`kiosk-revoke-${k.id}`} aria-label={t('face.kiosks.revokeNamed', { name: k.name })}>
        {t('face.kiosks.revoke')}
      </Button>
    );

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="face-kiosks-section">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('face.kiosks.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('face.kiosks.description')}
          </Text>
        </div>
        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="kiosk-error">
            {error}
          </Alert>
        )}

        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          aria-label={t('face.kiosks.create')}
        >
          <TextInput
            label={t('face.kiosks.name')}
            description={t('face.kiosks.nameHint')}
            placeholder={t('face.kiosks.namePlaceholder')}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
            error={nameError}
            maxLength={NAME_MAX + 20}
            styles={{ input: { minHeight: 44 } }}
            data-testid="kiosk-name"
            inputContainer={(children) => (
              <Group gap="xs" wrap="wrap" align="flex-start">
                <div style={{ flex: '1 1 14rem', minWidth: 0 }}>{children}</div>
                <Button type="submit" mih={44} leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending} data-testid="kiosk-create">
                  {t('face.kiosks.create')}
                </Button>
              </Group>
            )}
          />
        </form>

        {created && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={t('face.kiosks.tokenTitle', { name: created.name })} data-testid="kiosk-token-box">
            <Stack gap="sm">
              <Text size="sm" fw={600}>
                {t('face.kiosks.tokenOnce')}
              </Text>
              <Group gap="xs" align="flex-start" wrap="nowrap">
                {/* A textarea: its value and its text are both the token (copy by hand on a phone). */}
                <Textarea
                  key={created.token}
                  value={created.token}
                  readOnly
                  autosize
                  minRows={2}
                  aria-label={t('face.kiosks.token')}
                  styles={{ ...mono, input: { ...mono.input, wordBreak: 'break-all' } }}
                  onFocus={(e) => e.currentTarget.select()}
                  style={{ flex: 1, minWidth: 0 }}
                  data-testid="kiosk-token-value"
                />
                <Copy value={created.token} testId="kiosk-token-copy" />
              </Group>
              <div>
                <Text size="sm" fw={500}>
                  {t('face.kiosks.pairTitle')}
                </Text>
                <List type="ordered" size="sm" spacing={4} mt={4}>
                  <List.Item>
                    {t('face.kiosks.pairStep1')}{' '}
                    <Code style={{ wordBreak: 'break-all' }} data-testid="kiosk-pair-url">
                      {kioskUrl}
                    </Code>
                  </List.Item>
                  <List.Item>{t('face.kiosks.pairStep2')}</List.Item>
                  <List.Item>{t('face.kiosks.pairStep3')}</List.Item>
                </List>
              </div>
              <Group>
                <Button variant="default" mih={44} onClick={() => setCreated(null)} data-testid="kiosk-token-done">
                  {t('face.kiosks.tokenDone')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}

        {list.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="kiosks-empty">
            {t('face.kiosks.empty')}
          </Text>
        ) : narrow ? (
          <Stack gap={0} data-testid="kiosk-list">
            {list.map((k) => (
              <Stack
                key={k.id}
                gap={4}
                py="sm"
                style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                data-testid={`kiosk-row-${k.id}`}
                data-revoked={k.revoked_at ? 'true' : 'false'}
              >
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                    <IconDeviceTablet size={18} aria-hidden style={{ flexShrink: 0 }} />
                    <Text fw={600} size="sm" truncate>
                      {k.name}
                    </Text>
                  </Group>
                  <StatusBadge k={k} />
                </Group>
                <Hint k={k} />
                <AlarmBadge k={k} />
                <Text size="xs" c="dimmed">
                  {createdLine(k)}
                </Text>
                <Text size="xs" c="dimmed">
                  {k.revoked_at ? t('face.kiosks.revokedAt', { at: fmt(k.revoked_at, 'dateTime') }) : t('face.kiosks.lastSeenLine', { at: lastSeen(k) })}
                </Text>
                {revokeButton(k) && <Group mt={4}>{revokeButton(k)}</Group>}
              </Stack>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="xs" fz="sm" data-testid="kiosk-list" aria-label={t('face.kiosks.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('face.kiosks.name')}</Table.Th>
                  <Table.Th>{t('face.kiosks.tokenHint')}</Table.Th>
                  <Table.Th>{t('face.kiosks.created')}</Table.Th>
                  <Table.Th>{t('face.kiosks.lastSeen')}</Table.Th>
                  <Table.Th>{t('face.kiosks.status')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((k) => (
                  <Table.Tr key={k.id} data-testid={`kiosk-row-${k.id}`} data-revoked={k.revoked_at ? 'true' : 'false'}>
                    <Table.Td fw={500}>{k.name}</Table.Td>
                    <Table.Td>
                      <Hint k={k} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {fmt(k.created_at, 'dateTime')}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {k.created_by_name || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{lastSeen(k)}</Table.Td>
                    <Table.Td>
                      <StatusBadge k={k} />
                      <AlarmBadge k={k} />
                      {k.revoked_at && (
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                          {fmt(k.revoked_at, 'dateTime')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{revokeButton(k)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('face.kiosks.revokeTitle')}
        centered
        closeButtonProps={{ 'aria-label': tc('actions.cancel') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('face.kiosks.revokeConfirm', { name: revoking?.name ?? '' })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" mih={44} onClick={() => setRevoking(null)}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" mih={44} onClick={runRevoke} loading={revoke.isPending} data-testid="kiosk-revoke-confirm">
              {t('face.kiosks.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
