import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCamera, IconFaceId, IconPencil, IconShieldOff, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import type { FaceConsent } from '../api';
import { useDeleteSamples, useFaceStatus, useWithdrawConsent } from '../hooks';
import { enrolPath } from '../paths';
import { ConsentModal } from './ConsentModal';

const MAX_REASON = 500;

function ConsentEntry({ c }: { c: FaceConsent }) {
  const { t } = useTranslation('face');
  const fmt = useFormatDate();
  const active = c.withdrawn_at === null;
  return (
    <Stack gap={2} py="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }} data-testid={`face-consent-${c.id}`}>
      <Group gap="xs" wrap="wrap">
        <Badge size="sm" variant="light" color={active ? 'teal' : 'gray'}>
          {active ? t('history.active') : t('history.withdrawnBadge')}
        </Badge>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {t('history.given', {
            name: c.guardian_name,
            relationship: t(`relationship.${c.relationship}`, { defaultValue: c.relationship }),
            method: t(`method.${c.method}`, { defaultValue: c.method }),
            date: fmt(c.given_on, 'date'),
          })}
        </Text>
      </Group>
      {c.reference && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('history.reference', { reference: c.reference })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('history.recorded', { name: c.recorded_by_name || '—', at: fmt(c.recorded_at, 'dateTime') })}
      </Text>
      {c.withdrawn_at && (
        <Text size="xs" c="red.9">
          {t('history.withdrawn', { name: c.withdrawn_by_name || '—', at: fmt(c.withdrawn_at, 'dateTime') })}
          {c.withdrawal_reason ? ` · ${t('history.reason', { reason: c.withdrawal_reason })}` : ''}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The student page's Face-ID card: the parent's consent and its history, what is enrolled,
 * and — by permission — recording or withdrawing consent, enrolling and deleting the face
 * data. It never loads the face engine (the enrol page does).
 */
export function FaceCard({ studentId }: { studentId: number }) {
  const { t } = useTranslation('face');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const { can } = useSession();
  const status = useFaceStatus(studentId);
  const withdraw = useWithdrawConsent(studentId);
  const remove = useDeleteSamples(studentId);
  const [consentOpen, setConsentOpen] = useState(false);
  const [withdrawOpen, setWithdrawOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [reason, setReason] = useState('');

  const s = status.data;
  const consent = s?.consent ?? null;
  const samples = s?.samples ?? 0;
  const history = s?.history ?? [];
  const canConsent = can('face.consent');
  const canEnrol = can('face.enrol');

  const doWithdraw = () =>
    withdraw.mutate(reason.trim(), {
      onSuccess: () => {
        notifySuccess(t('withdraw.done'));
        setWithdrawOpen(false);
        setReason('');
      },
      onError: (err) => notifyError(err, tc),
    });
  const doDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        notifySuccess(t('deleteSamples.done'));
        setDeleteOpen(false);
      },
      onError: (err) => notifyError(err, tc),
    });

  return (
    <Card withBorder padding="md" data-testid="face-card">
      <Group justify="space-between" align="center" mb="sm" gap="xs" wrap="wrap">
        <Title order={2} size="h5">
          <Group gap={6} component="span" wrap="nowrap">
            <IconFaceId size={18} aria-hidden />
            {t('card.title')}
          </Group>
        </Title>
        {s && (
          <Group gap="xs" wrap="wrap">
            {canConsent && (
              <Button variant={consent ? 'default' : 'filled'} mih={44} leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setConsentOpen(true)} data-testid="face-consent-record">
                {consent ? t('card.correct') : t('card.record')}
              </Button>
            )}
            {canEnrol && consent && (
              <Button component={Link} to={enrolPath(studentId)} mih={44} leftSection={<IconCamera size={16} aria-hidden />} data-testid="face-enrol">
                {samples > 0 ? t('card.reEnrol') : t('card.enrol')}
              </Button>
            )}
          </Group>
        )}
      </Group>

      {status.isPending && <Loader size="sm" />}
      {status.isError && (
        <Alert color="red" variant="light">
          {t('card.loadFailed')} {errorMessage(status.error, tc)}
        </Alert>
      )}
      {s && (
        <Stack gap="sm">
          <Text size="sm" fw={500} data-testid="face-consent-status" data-state={consent ? 'active' : 'none'}>
            {consent
              ? t('card.consentActive', { name: consent.guardian_name, relationship: t(`relationship.${consent.relationship}`, { defaultValue: consent.relationship }) })
              : t('card.consentNone')}
          </Text>
          {!consent && (
            <Text size="sm" c="dimmed">
              {t('card.consentNeeded')}
            </Text>
          )}
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Stack gap={0}>
              <Text size="sm" data-testid="face-samples" data-count={samples}>
                {samples > 0 ? t('card.samples', { count: samples }) : t('card.samplesNone')}
              </Text>
              {samples > 0 && s.model && (
                <Text size="xs" c="dimmed">
                  {t('card.enrolledWith', { date: fmt(s.enrolled_at, 'dateTime'), model: s.model })}
                </Text>
              )}
            </Stack>
            <Group gap="xs" wrap="wrap">
              {canEnrol && samples > 0 && (
                <Button variant="subtle" color="red" mih={44} leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleteOpen(true)} data-testid="face-delete-samples">
                  {t('card.deleteSamples')}
                </Button>
              )}
              {canConsent && consent && (
                <Button variant="subtle" color="red" mih={44} leftSection={<IconShieldOff size={16} aria-hidden />} onClick={() => setWithdrawOpen(true)} data-testid="face-consent-withdraw">
                  {t('card.withdraw')}
                </Button>
              )}
            </Group>
          </Group>
          {history.length > 0 && (
            <Stack gap={0} data-testid="face-consent-history">
              <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={4}>
                {t('history.title')}
              </Text>
              {history.map((c) => (
                <ConsentEntry key={c.id} c={c} />
              ))}
            </Stack>
          )}
          <Text size="xs" c="dimmed">
            {t('card.noPhoto')}
          </Text>
        </Stack>
      )}

      {canConsent && <ConsentModal studentId={studentId} consent={consent} opened={consentOpen} onClose={() => setConsentOpen(false)} />}

      <Modal opened={withdrawOpen} onClose={() => setWithdrawOpen(false)} title={t('withdraw.title')} data-testid="face-withdraw-dialog">
        <Stack gap="md">
          <Text size="sm">{t('withdraw.body', { name: s?.student_name ?? '' })}</Text>
          <Textarea
            label={t('withdraw.reason')}
            description={t('withdraw.reasonHint')}
            maxLength={MAX_REASON}
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-testid="face-withdraw-reason"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" mih={44} onClick={() => setWithdrawOpen(false)} data-autofocus>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" mih={44} loading={withdraw.isPending} onClick={doWithdraw} data-testid="face-withdraw-confirm">
              {t('withdraw.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={deleteOpen} onClose={() => setDeleteOpen(false)} title={t('deleteSamples.title')} data-testid="face-delete-dialog">
        <Stack gap="md">
          <Text size="sm">{t('deleteSamples.body', { name: s?.student_name ?? '', count: samples })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" mih={44} onClick={() => setDeleteOpen(false)} data-autofocus>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" mih={44} loading={remove.isPending} onClick={doDelete} data-testid="face-delete-confirm">
              {t('deleteSamples.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
