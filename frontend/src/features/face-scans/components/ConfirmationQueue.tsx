import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { EmptyState } from '@/components/EmptyState';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import type { FaceScan, FaceScanResolution } from '../api';
import { attendanceKey } from '../display';
import { useFaceConfirmations, useResolveScan } from '../hooks';
import { ChallengeText, usePercent } from './ScanBits';

/** One person the scan may be: name, class, similarity, and the button that says "it is them". */
function Candidate({
  label,
  name,
  className,
  score,
  onConfirm,
  busy,
  disabled,
  testId,
  primary,
}: {
  label: string;
  name: string;
  className?: string;
  score: number | null;
  onConfirm: () => void;
  busy: boolean;
  disabled: boolean;
  testId: string;
  primary: boolean;
}) {
  const { t } = useTranslation('face-scans');
  const pct = usePercent();
  return (
    <Stack gap={6} p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {name || t('unnamed')}
          </Text>
          {className && (
            <Text size="xs" c="dimmed">
              {className}
            </Text>
          )}
        </div>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} aria-label={t('scoreNamed', { score: pct(score) })}>
          {pct(score)}
        </Text>
      </Group>
      <Button
        variant={primary ? 'filled' : 'light'}
        leftSection={<IconCheck size={18} aria-hidden />}
        mih={44}
        fullWidth
        onClick={onConfirm}
        loading={busy}
        disabled={disabled}
        data-testid={testId}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
      >
        {t('confirmAs', { name: name || t('unnamed') })}
      </Button>
    </Stack>
  );
}

function QueueRow({ s, onResolve, pending }: { s: FaceScan; onResolve: (s: FaceScan, r: FaceScanResolution) => void; pending: string | null }) {
  const { t } = useTranslation('face-scans');
  const fmt = useFormatDate();
  const pct = usePercent();
  const busy = pending !== null;
  const mine = (what: string) => pending === `${s.id}:${what}`;
  return (
    <Card withBorder p="sm" data-testid={`face-confirm-row-${s.id}`} data-scan-id={s.id}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600}>
              {fmt(s.scanned_at, 'dateTimeSeconds')}
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('atKiosk', { kiosk: s.kiosk_name || '—' })}
            </Text>
          </div>
          <ChallengeText s={s} />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: s.runner_up_id ? 2 : 1 }} spacing="sm">
          {s.student_id !== null && (
            <Candidate
              label={t('candidate')}
              name={s.student_name}
              className={s.class_name}
              score={s.score}
              primary
              onConfirm={() => onResolve(s, { action: 'confirm', student_id: s.student_id! })}
              busy={mine('candidate')}
              disabled={busy && !mine('candidate')}
              testId={`face-confirm-${s.id}`}
            />
          )}
          {s.runner_up_id !== null && (
            <Candidate
              label={t('runnerUp')}
              name={s.runner_up_name}
              score={s.runner_up_score}
              primary={false}
              onConfirm={() => onResolve(s, { action: 'confirm', student_id: s.runner_up_id! })}
              busy={mine('runner')}
              disabled={busy && !mine('runner')}
              testId={`face-confirm-runner-${s.id}`}
            />
          )}
        </SimpleGrid>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">
            {s.margin !== null ? t('marginLine', { margin: pct(s.margin) }) : ''}
          </Text>
          <Button
            variant="default"
            color="red"
            mih={44}
            leftSection={<IconX size={18} aria-hidden />}
            onClick={() => onResolve(s, { action: 'reject' })}
            loading={mine('reject')}
            disabled={busy && !mine('reject')}
            data-testid={`face-reject-${s.id}`}
          >
            {t('reject')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The uncertain scans waiting for a teacher, oldest first; one tap confirms or rejects. */
export function ConfirmationQueue() {
  const { t } = useTranslation('face-scans');
  const { t: tc } = useTranslation();
  const q = useFaceConfirmations();
  const resolve = useResolveScan();
  const [pending, setPending] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const rows = q.data?.data ?? [];

  const onResolve = (s: FaceScan, r: FaceScanResolution) => {
    const what = r.action === 'reject' ? 'reject' : r.student_id === s.student_id ? 'candidate' : 'runner';
    setPending(`${s.id}:${what}`);
    setConflict(null);
    resolve.mutate(
      { id: s.id, r },
      {
        onSuccess: (done) => {
          if (r.action === 'reject') notifySuccess(t('rejected'));
          else {
            const name = done.resolved_student_name || (what === 'candidate' ? s.student_name : s.runner_up_name);
            notifySuccess(t(`confirmed.${attendanceKey(done.attendance)}`, { name }));
          }
        },
        onError: (err) => {
          // Someone else (another teacher, another tab) was first: say so; the list refreshes.
          if (isApiError(err) && err.status === 409) setConflict(err.message || t('alreadyResolved'));
          else notifyError(err, tc);
        },
        onSettled: () => setPending(null),
      },
    );
  };

  if (q.isPending)
    return (
      <Center p="xl">
        <Loader aria-label={tc('loading')} />
      </Center>
    );
  if (q.isError && !q.data)
    return (
      <Alert color="red" icon={<IconAlertCircle />} role="alert">
        {errorMessage(q.error, tc)}
      </Alert>
    );
  return (
    <Stack gap="sm" data-testid="face-confirm-list">
      {conflict && (
        <Alert
          color="yellow"
          icon={<IconAlertCircle />}
          title={t('alreadyResolvedTitle')}
          withCloseButton
          closeButtonLabel={tc('actions.close')}
          onClose={() => setConflict(null)}
          role="alert"
          data-testid="face-already-resolved"
        >
          {conflict}
        </Alert>
      )}
      <Alert color="blue" variant="light" icon={<IconInfoCircle />} p="sm">
        <Text size="sm">{t('queueHint')}</Text>
      </Alert>
      {rows.length === 0 ? (
        <EmptyState message={t('queueEmpty')} testId="face-confirm-empty" />
      ) : (
        rows.map((s) => <QueueRow key={s.id} s={s} onResolve={onResolve} pending={pending} />)
      )}
    </Stack>
  );
}
