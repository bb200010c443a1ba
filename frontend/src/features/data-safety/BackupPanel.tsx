import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconDatabaseExport, IconDownload, IconTerminal2 } from '@tabler/icons-react';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { BackupBrokenError, useBackupDownload, useBackups, type Backup } from './BackupApi';
import { megabytes, NIGHTLY_CRON, shortSum } from './BackupLogic';

const statusColor: Record<Backup['status'], string> = { done: 'teal', running: 'blue', failed: 'red' };

/** Settings → Data: download a backup now, the backups made, and how to make one every night. */
export function BackupPanel() {
  const { t } = useTranslation('data-safety');
  const { t: tc } = useTranslation();
  const num = useFormatNumber();
  const list = useBackups();
  const download = useBackupDownload();
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setError(null);
    try {
      const name = await download.start();
      notifySuccess(t('backup.downloaded', { name }));
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      setError(err instanceof BackupBrokenError ? t('backup.broken') : errorMessage(err, tc));
    }
  };

  const missing = list.data && !list.data.pg_dump;
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="backup-panel">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('backup.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('backup.description')}
          </Text>
        </div>
        {missing && (
          <Alert color="yellow" icon={<IconAlertCircle />} title={t('backup.missingTitle')} data-testid="backup-missing">
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              {list.data?.install}
            </Text>
          </Alert>
        )}
        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="backup-error">
            {error}
          </Alert>
        )}
        <Group gap="sm" align="center">
          <Button
            leftSection={<IconDownload size={16} />}
            onClick={() => void run()}
            loading={download.running}
            disabled={!list.data || !!missing}
            data-testid="backup-download"
          >
            {t('backup.downloadNow')}
          </Button>
          {download.running && (
            <Group gap="xs" data-testid="backup-progress" aria-live="polite">
              <Loader size="xs" />
              <Text size="sm">{t('backup.progress', { mb: num(megabytes(download.bytes)) })}</Text>
              <Button variant="subtle" size="compact-sm" onClick={download.cancel}>
                {tc('actions.cancel')}
              </Button>
            </Group>
          )}
        </Group>
        {list.data?.pg_dump && (
          <Text size="xs" c="dimmed" data-testid="backup-tool">
            {t('backup.tool', { path: list.data.pg_dump, version: list.data.pg_dump_version })}
          </Text>
        )}
        {list.isPending ? <PageLoader /> : list.isError ? (
          <Alert color="red" icon={<IconAlertCircle />}>
            {errorMessage(list.error, tc)}
          </Alert>
        ) : (
          <BackupTable rows={list.data.data} />
        )}
        <Stack gap={4}>
          <Group gap="xs">
            <IconTerminal2 size={16} aria-hidden />
            <Text size="sm" fw={500}>
              {t('backup.nightlyTitle')}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {t('backup.nightly')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="backup-cron">
            {NIGHTLY_CRON}
          </Code>
          <Text size="sm" c="dimmed">
            {t('backup.restoreHint')}
          </Text>
          <Code block>tatib-server restore tatib-….dump</Code>
        </Stack>
      </Stack>
    </Card>
  );
}

function BackupTable({ rows }: { rows: Backup[] }) {
  const { t } = useTranslation('data-safety');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  if (rows.length === 0) {
    return (
      <Group gap="xs" c="dimmed" data-testid="backup-empty">
        <IconDatabaseExport size={18} aria-hidden />
        <Text size="sm">{t('backup.none')}</Text>
      </Group>
    );
  }
  const size = (b: Backup) => (b.status === 'done' ? t('backup.mb', { mb: num(megabytes(b.size_bytes)) }) : '—');
  const status = (b: Backup) => (
    <Badge color={statusColor[b.status]} variant="light" data-testid="backup-status">
      {t(`backup.status.${b.status}`)}
    </Badge>
  );
  const sum = (b: Backup) =>
    b.sha256 ? (
      <Text size="xs" ff="monospace" title={b.sha256}>
        {shortSum(b.sha256)}
      </Text>
    ) : (
      '—'
    );
  if (narrow) {
    return (
      <Stack gap={0} data-testid="backup-list">
        {rows.map((b) => (
          <Stack key={b.id} gap={2} py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="backup-row">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm">{fmt(b.started_at, 'dateTime')}</Text>
              {status(b)}
            </Group>
            <Text size="sm">
              {size(b)} · {b.created_by_name || '—'} · {t(`backup.via.${b.via}`)}
            </Text>
            {b.status === 'failed' && b.error && (
              <Text size="xs" c="red" style={{ wordBreak: 'break-word' }}>
                {b.error}
              </Text>
            )}
            {sum(b)}
          </Stack>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table striped verticalSpacing="xs" fz="sm" data-testid="backup-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('backup.col.time')}</Table.Th>
            <Table.Th ta="right">{t('backup.col.size')}</Table.Th>
            <Table.Th>{t('backup.col.by')}</Table.Th>
            <Table.Th>{t('backup.col.via')}</Table.Th>
            <Table.Th>{t('backup.col.status')}</Table.Th>
            <Table.Th>{t('backup.col.sha256')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((b) => (
            <Table.Tr key={b.id} data-testid="backup-row">
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{fmt(b.started_at, 'dateTime')}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="backup-size">
                {size(b)}
              </Table.Td>
              <Table.Td>{b.created_by_name || '—'}</Table.Td>
              <Table.Td>{t(`backup.via.${b.via}`)}</Table.Td>
              <Table.Td>
                {status(b)}
                {b.status === 'failed' && b.error && (
                  <Text size="xs" c="red" mt={2} style={{ wordBreak: 'break-word' }} data-testid="backup-failure">
                    {b.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{sum(b)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
