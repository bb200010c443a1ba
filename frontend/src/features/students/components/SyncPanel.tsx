import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconInfoCircle, IconRefresh } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { errorMessage } from '@/components/serverErrors';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { useInvalidateSchoolData, useLatestSync, useStartSync, useSyncHistory, useSyncJob } from '../hooks';
import { syncCounts, syncProgress, syncSeconds } from '../sync';
import type { StudentSync } from '../types';

function statusColor(s: StudentSync['status']) {
  return s === 'succeeded' ? 'teal' : s === 'failed' ? 'red' : 'blue';
}

/** The progress bar, or the counts, or the error of one job. */
export function SyncJobView({ job }: { job: StudentSync }) {
  const { t } = useTranslation('students');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  // Counts in the language's separators ("1.200" / "1,200"), not as bare digits.
  const nums = (values: Record<string, number>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, num(v)]));
  const p = syncProgress(job);
  const seconds = syncSeconds(job);
  return (
    <Stack gap="xs" data-testid="sync-job" data-status={job.status} data-job-id={job.id}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs">
          <Badge color={statusColor(job.status)} variant="light">
            {t(`sync.status.${job.status}`)}
          </Badge>
          <Text size="sm" fw={500} data-testid="sync-phase">
            {t(p.phaseKey)}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('sync.startedBy', { time: fmt(job.started_at, 'dateTime'), name: job.actor_name || t(`sync.trigger.${job.trigger}`) })}
          {seconds !== null && ` · ${t('sync.seconds', { count: seconds })}`}
        </Text>
      </Group>
      {(p.running || job.status === 'failed') && (
        <Progress
          value={p.value}
          color={p.color}
          striped={p.running}
          animated={p.running}
          size="lg"
          aria-label={t('sync.progressLabel')}
          data-testid="sync-progress"
        />
      )}
      {p.running && (
        <Group gap="md">
          {p.pages && (
            <Text size="sm" c="dimmed" data-testid="sync-pages">
              {t(p.pages.key, nums(p.pages.values))}
            </Text>
          )}
          {p.records && (
            <Text size="sm" c="dimmed">
              {t(p.records.key, nums(p.records.values))}
            </Text>
          )}
        </Group>
      )}
      {job.status === 'failed' && (
        <Alert color="red" icon={<IconAlertCircle />} title={t('sync.failedTitle')} data-testid="sync-error">
          {job.error || t('sync.failedUnknown')}
        </Alert>
      )}
      {job.status === 'succeeded' && job.result && (
        <>
          <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="xs" data-testid="sync-counts">
            {syncCounts(job).map((c) => (
              <Stack key={c.key} gap={0} p="xs" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
                <Text size="xl" fw={700} data-testid={`sync-count-${c.key}`}>
                  {num(c.value)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`sync.counts.${c.key}`)}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
          {!job.result.complete && (
            <Alert color="yellow" icon={<IconAlertTriangle />}>
              {t('sync.incomplete')}
            </Alert>
          )}
          {(job.result.warnings ?? []).map((w) => (
            <Text key={w} size="sm" c="yellow.9">
              {w}
            </Text>
          ))}
        </>
      )}
    </Stack>
  );
}

/** The last few runs, newest first (a list, so it fits a phone). */
export function SyncHistory({ perPage = 5 }: { perPage?: number }) {
  const { t } = useTranslation('students');
  const fmt = useFormatDate();
  const history = useSyncHistory(perPage);
  const rows = history.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('sync.history')}
      </Text>
      <Stack gap={0} data-testid="sync-history">
        {rows.map((j) => (
          <Group
            key={j.id}
            gap="xs"
            py={6}
            wrap="wrap"
            align="flex-start"
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Badge size="sm" variant="light" color={statusColor(j.status)} w={90}>
              {t(`sync.status.${j.status}`)}
            </Badge>
            <Text size="sm" w={150} style={{ whiteSpace: 'nowrap' }}>
              {fmt(j.started_at, 'dateTime')}
            </Text>
            <Text size="sm" c="dimmed" style={{ flex: '1 1 240px', minWidth: 0 }} lineClamp={2}>
              {j.actor_name || t(`sync.trigger.${j.trigger}`)}
              {' · '}
              {j.status === 'failed'
                ? j.error
                : j.result
                  ? t('sync.short', { new: j.result.new, updated: j.result.updated, deactivated: j.result.deactivated })
                  : t('sync.phase.fetching')}
            </Text>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

/**
 * "Sync now" with the running job's progress and the outcome. Used in Settings →
 * Integrations and from the Students page (students.sync without settings.manage).
 */
export function SyncPanel({ withHistory = false }: { withHistory?: boolean }) {
  const { t } = useTranslation('students');
  const { t: tc } = useTranslation();
  const latest = useLatestSync();
  const start = useStartSync();
  const [jobId, setJobId] = useState<number | null>(null);
  const [startError, setStartError] = useState<{ conflict: boolean; message: string } | null>(null);
  const invalidate = useInvalidateSchoolData();

  // A sync already running (started elsewhere) is followed too.
  const followId = jobId ?? (latest.data?.status === 'running' ? latest.data.id : null);
  const polled = useSyncJob(followId);
  const job = (followId !== null ? polled.data : undefined) ?? latest.data ?? null;

  const wasRunning = useRef<number | null>(null);
  useEffect(() => {
    if (!job) return;
    if (job.status === 'running') wasRunning.current = job.id;
    else if (wasRunning.current === job.id) {
      wasRunning.current = null;
      void invalidate();
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs only when the values listed change (the others are read at that moment)
  }, [job?.id, job?.status]);

  const running = job?.status === 'running';
  const onStart = () => {
    setStartError(null);
    start.mutate(undefined, {
      onSuccess: (j) => setJobId(j.id),
      onError: (err) => {
        const conflict = isApiError(err) && err.status === 409;
        setStartError({ conflict, message: errorMessage(err, tc) });
        if (conflict) void latest.refetch();
      },
    });
  };

  return (
    <Stack gap="md" data-testid="sync-panel">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" maw={520}>
          {t('sync.explain')}
        </Text>
        <Button leftSection={<IconRefresh size={18} />} onClick={onStart} loading={start.isPending} disabled={running} data-testid="sync-now">
          {running ? t('sync.running') : t('sync.now')}
        </Button>
      </Group>
      {startError && (
        <Alert
          color={startError.conflict ? 'yellow' : 'red'}
          icon={startError.conflict ? <IconAlertTriangle /> : <IconAlertCircle />}
          title={startError.conflict ? t('sync.conflictTitle') : t('sync.startFailed')}
          role="alert"
          withCloseButton
          onClose={() => setStartError(null)}
          data-testid="sync-start-error"
        >
          {startError.message}
        </Alert>
      )}
      {job ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {running ? t('sync.current') : t('sync.latest')}
          </Text>
          <SyncJobView job={job} />
        </Stack>
      ) : (
        latest.isSuccess && (
          <Group gap="xs">
            <IconInfoCircle size={16} color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed">
              {t('sync.never')}
            </Text>
          </Group>
        )
      )}
      {withHistory && <SyncHistory />}
    </Stack>
  );
}
