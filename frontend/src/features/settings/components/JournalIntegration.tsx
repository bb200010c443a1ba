import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconCheck, IconCopy, IconEye, IconEyeOff, IconKey, IconRefresh } from '@tabler/icons-react';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { ListPager } from '@/components/ListPager';
import { PageLoader } from '@/components/PageLoader';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { JournalRefusedTokens } from './JournalRefusedTokens';
import {
  curlExample,
  journalUrls,
  useJournalParked,
  useJournalPushes,
  useJournalToken,
  useRegenerateJournalToken,
  type JournalOutcome,
  type JournalPush,
} from '../journal';

const outcomeColor: Record<JournalOutcome, string> = {
  applied: 'teal',
  rejected: 'orange',
  unauthorized: 'red',
  too_large: 'grape',
  failed: 'red',
};

function Copy({ value, testId }: { value: string; testId?: string }) {
  const { t } = useTranslation('settings');
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('journal.copied') : t('journal.copy')} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('journal.copy')} data-testid={testId}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** Settings → Integrations: the journal (E-Jurnal) token, its addresses, the last pushes and the parked entries. */
export function JournalIntegration() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const token = useJournalToken();
  const regenerate = useRegenerateJournalToken();
  const [shown, setShown] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!token.data) return <PageLoader />;
  const tok = token.data.token;
  const urls = journalUrls(window.location.origin);

  const run = () => {
    setError(null);
    regenerate.mutate(undefined, {
      onSuccess: () => {
        setConfirm(false);
        setShown(true);
        notifySuccess(t(tok ? 'journal.regenerated' : 'journal.generated'));
      },
      onError: (err) => {
        setConfirm(false);
        setError(errorMessage(err, tc));
      },
    });
  };

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="journal-section">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('journal.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('journal.description')}
          </Text>
        </div>
        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {error}
          </Alert>
        )}
        {tok === '' ? (
          <Alert color="yellow" icon={<IconKey />} title={t('journal.noTokenTitle')} data-testid="journal-no-token">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('journal.noToken')}</Text>
              <Button leftSection={<IconKey size={16} />} onClick={run} loading={regenerate.isPending} data-testid="journal-token-generate">
                {t('journal.generate')}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <TextInput
            label={t('journal.token')}
            description={
              token.data.created_at
                ? t('journal.tokenCreated', { at: fmt(token.data.created_at, 'dateTime'), by: token.data.created_by || '—' })
                : undefined
            }
            value={shown ? tok : '•'.repeat(24)}
            readOnly
            styles={mono}
            data-testid="journal-token"
            rightSectionWidth={72}
            rightSection={
              <Group gap={2} wrap="nowrap">
                <Tooltip label={shown ? t('journal.hide') : t('journal.show')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    onClick={() => setShown((s) => !s)}
                    aria-label={shown ? t('journal.hide') : t('journal.show')}
                    data-testid="journal-token-show"
                  >
                    {shown ? <IconEyeOff size={16} /> : <IconEye size={16} />}
                  </ActionIcon>
                </Tooltip>
                <Copy value={tok} testId="journal-token-copy" />
              </Group>
            }
            inputContainer={(children) => (
              <Group gap="xs" wrap="wrap" align="flex-start">
                <div style={{ flex: '1 1 14rem', minWidth: 0 }}>{children}</div>
                <Button variant="default" color="red" leftSection={<IconRefresh size={16} />} onClick={() => setConfirm(true)} data-testid="journal-token-regenerate">
                  {t('journal.regenerate')}
                </Button>
              </Group>
            )}
          />
        )}
        <TextInput label={t('journal.syncUrl')} description={t('journal.syncUrlHint')} value={urls.sync} readOnly styles={mono}
          rightSection={<Copy value={urls.sync} />} data-testid="journal-sync-url" />
        <TextInput label={t('journal.pingUrl')} value={`${urls.ping}?token=…`} readOnly styles={mono}
          rightSection={<Copy value={`${urls.ping}?token=${tok}`} />} />
        <div>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              {t('journal.curl')}
            </Text>
            <Copy value={curlExample(urls.sync, tok || 'TOKEN')} />
          </Group>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="journal-curl">
            {curlExample(urls.sync, shown && tok ? tok : 'TOKEN')}
          </Code>
          <Text size="xs" c="dimmed" mt={4}>
            {t('journal.limits')}
          </Text>
        </div>
        <PushLog />
        <JournalRefusedTokens />
        <ParkedList />
      </Stack>
      <Modal opened={confirm} onClose={() => setConfirm(false)} title={t('journal.regenerateTitle')} centered closeButtonProps={{ 'aria-label': tc('actions.cancel') }}>
        <Stack gap="md">
          <Text size="sm">{t('journal.regenerateConfirm')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirm(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" onClick={run} loading={regenerate.isPending} data-testid="journal-regenerate-confirm">
              {t('journal.regenerate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function PushLog() {
  const { t } = useTranslation('settings');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const [keptOpen, setKeptOpen] = useState<number | null>(null);
  const q = useJournalPushes(page);
  const list = q.data?.data ?? [];
  const counts = (p: JournalPush) =>
    p.outcome === 'applied'
      ? [
          t('journal.counts', {
            created: num(p.results.created),
            updated: num(p.results.updated),
            unchanged: num(p.results.unchanged),
            unmatched: num(p.results.unmatched),
          }),
          p.results.kept_by_person > 0 ? t('journal.keptCount', { n: num(p.results.kept_by_person) }) : '',
        ]
          .filter(Boolean)
          .join(', ')
      : p.error;
  // The entries kept for a person (a person's entry beats the journal's), behind a toggle.
  const keptOf = (p: JournalPush) =>
    (p.kept?.length ?? 0) > 0 && (
      <>
        <Anchor
          component="button"
          type="button"
          size="xs"
          display="block"
          onClick={() => setKeptOpen(keptOpen === p.id ? null : p.id)}
          aria-expanded={keptOpen === p.id}
          data-testid="journal-push-kept-toggle"
        >
          {keptOpen === p.id ? t('journal.hideKept') : t('journal.showKept', { n: num(p.results.kept_by_person) })}
        </Anchor>
        {keptOpen === p.id && (
          <Stack gap={2} mt={4} data-testid="journal-push-kept">
            {p.kept.map((k) => (
              <Text key={`${k.student_id}-${k.date}-${k.lesson_hour}`} size="xs" style={{ wordBreak: 'break-word' }}>
                {k.text}
              </Text>
            ))}
            {p.results.kept_by_person > p.kept.length && (
              <Text size="xs" c="dimmed">
                {t('journal.keptMore', { n: num(p.results.kept_by_person - p.kept.length) })}
              </Text>
            )}
          </Stack>
        )}
      </>
    );
  // The first bad entries of a refused push, behind a toggle.
  const errorsOf = (p: JournalPush) =>
    p.errors.length > 0 && (
      <>
        <Anchor component="button" type="button" size="xs" onClick={() => setOpen(open === p.id ? null : p.id)} aria-expanded={open === p.id}>
          {open === p.id ? t('journal.hideErrors') : t('journal.showErrors', { n: num(p.errors.length) })}
        </Anchor>
        {open === p.id && (
          <Stack gap={2} mt={4} data-testid="journal-push-errors">
            {p.errors.map((e) => (
              <Text key={e} size="xs" ff="monospace" style={{ wordBreak: 'break-word' }}>
                {e}
              </Text>
            ))}
          </Stack>
        )}
      </>
    );
  return (
    <Section title={t('journal.pushes')}>
      {q.isPending ? (
        <PageLoader />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="journal-pushes-empty">
          {t('journal.noPushes')}
        </Text>
      ) : narrow ? (
        <Stack gap={0} data-testid="journal-pushes">
          {list.map((p) => (
            <Stack key={p.id} gap={4} py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="journal-push-row">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm">{fmt(p.received_at, 'dateTimeSeconds')}</Text>
                <Badge color={outcomeColor[p.outcome] ?? 'gray'} variant="light" style={{ flexShrink: 0 }} data-testid="journal-push-outcome">
                  {t(`journal.outcomes.${p.outcome}`)}
                </Badge>
              </Group>
              <Text size="sm" data-testid="journal-push-result">
                {t('journal.entriesShort', { n: num(p.entries) })} · {counts(p)}
              </Text>
              {keptOf(p)}
              {errorsOf(p)}
            </Stack>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="xs" fz="sm" data-testid="journal-pushes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('journal.time')}</Table.Th>
                <Table.Th>{t('journal.outcome')}</Table.Th>
                <Table.Th ta="right">{t('journal.entries')}</Table.Th>
                <Table.Th>{t('journal.result')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((p) => (
                <Table.Tr key={p.id} data-testid="journal-push-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{fmt(p.received_at, 'dateTimeSeconds')}</Table.Td>
                    <Table.Td style={{ minWidth: 130 }}>
                      <Badge color={outcomeColor[p.outcome] ?? 'gray'} variant="light" data-testid="journal-push-outcome">
                        {t(`journal.outcomes.${p.outcome}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{num(p.entries)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" data-testid="journal-push-result">
                        {counts(p)}
                      </Text>
                      {keptOf(p)}
                      {errorsOf(p)}
                    </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ListPager meta={q.data?.meta} onChange={setPage} narrow={narrow} />
    </Section>
  );
}

function ParkedList() {
  const { t } = useTranslation('settings');
  const fmt = useFormatDate();
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const [page, setPage] = useState(1);
  const q = useJournalParked(page);
  const list = q.data?.data ?? [];
  return (
    <Section title={t('journal.parked')}>
      <Text size="xs" c="dimmed">
        {t('journal.parkedHint')}
      </Text>
      {q.isPending ? (
        <PageLoader />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="journal-parked-empty">
          {t('journal.noParked')}
        </Text>
      ) : narrow ? (
        <Stack gap={0} data-testid="journal-parked">
          {list.map((p) => (
            <Stack key={`${p.source_student_id}-${p.date}-${p.lesson_hour}`} gap={2} py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
              <Group justify="space-between" gap="xs">
                <Text size="sm" ff="monospace">
                  {p.source_student_id}
                </Text>
                <Text size="sm">
                  {fmt(p.date, 'shortDate')} · {t('journal.hour', { n: p.lesson_hour })} · {p.status}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {p.reason_text}
              </Text>
            </Stack>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="xs" fz="sm" data-testid="journal-parked">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('journal.sourceId')}</Table.Th>
                <Table.Th>{t('journal.dateHour')}</Table.Th>
                <Table.Th>{t('journal.status')}</Table.Th>
                <Table.Th>{t('journal.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((p) => (
                <Table.Tr key={`${p.source_student_id}-${p.date}-${p.lesson_hour}`}>
                  <Table.Td ff="monospace">{p.source_student_id}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {fmt(p.date, 'shortDate')} · {t('journal.hour', { n: p.lesson_hour })}
                  </Table.Td>
                  <Table.Td>{p.status}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.reason_text}</Text>
                    <Text size="xs" c="dimmed">
                      {t('journal.receivedAt', { at: fmt(p.received_at, 'dateTime') })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ListPager meta={q.data?.meta} onChange={setPage} narrow={narrow} />
    </Section>
  );
}
