import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Card, Group, Image, Modal, SimpleGrid, Stack, Text, Timeline, Title, UnstyledButton } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconCircleCheck, IconPlus, IconRosetteDiscountCheck, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { PageLoader } from '@/components/PageLoader';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { ViewOnlyList } from '@/components/ViewOnly';
import { yearLabel, yearStartOf } from '@/features/warning-letters/academicYear';
import { useAcademicYear } from '@/features/warning-letters/hooks';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { CategoryBadge, HandlingStatusBadge, PointsBadge, VerifiedBadge } from '../components/Badges';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { HandlingForm } from '../components/HandlingForm';
import { SharedCovers } from '../components/SharedCovers';
import { CorrectViolation } from '../components/CorrectViolation';
import { useDeleteHandling, useDeleteViolation, useReopenViolation, useResolveViolation, useVerifyViolation, useViolation } from '../hooks';
import { shownRole, type RoleKey } from '../participants';
import { paths } from '../paths';
import type { Handling, Violation, ViolationPhoto } from '../types';
import '@/app/pageStyles';

function Photos({ photos }: { photos: ViolationPhoto[] }) {
  const { t } = useTranslation('violations');
  const [open, setOpen] = useState<number | null>(null);
  const shown = open === null ? null : photos[open];
  return (
    <>
      <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs" data-testid="photos">
        {photos.map((p, i) => (
          <UnstyledButton key={p.id} onClick={() => setOpen(i)} aria-label={t('photos.open', { n: i + 1 })} data-testid="photo-thumb">
            <Image src={p.thumbnail_url} alt={t('photos.thumb', { n: i + 1 })} radius="sm" h={96} fit="cover" />
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <Modal opened={!!shown} onClose={() => setOpen(null)} title={t('photos.title', { n: (open ?? 0) + 1, total: photos.length })} size="xl" centered closeButtonProps={{ 'aria-label': t('close') }}>
        {shown && <Image src={shown.url} alt={t('photos.full', { n: (open ?? 0) + 1 })} fit="contain" mah="75vh" data-testid="photo-full" />}
      </Modal>
    </>
  );
}

function HandlingItem({ h, onDelete }: { h: Handling; onDelete?: () => void }) {
  const { t } = useTranslation('violations');
  const fmt = useFormatDate();
  const roleLabel = (k: RoleKey) => t(`roles.${k}`);
  const people = h.participants ?? [];
  return (
    <Stack gap={4} data-testid={`handling-${h.id}`}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} size="sm">
            {h.handling_type_name}
          </Text>
          <Text size="xs" c="dimmed">
            {fmt(h.handled_on, 'date')}
            {h.created_by_name ? ` · ${t('handling.by', { name: h.created_by_name })}` : ''}
          </Text>
        </Stack>
        {onDelete && (
          <Button variant="subtle" color="red" size="compact-sm" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete} mih={44} data-testid="delete-handling">
            {t('handling.delete')}
          </Button>
        )}
      </Group>
      {h.notes && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {h.notes}
        </Text>
      )}
      {people.length > 0 && (
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            {t('handling.participants')}:{' '}
          </Text>
          {people.map((p) => `${p.name} (${shownRole(p.role, roleLabel) || '—'})`).join(', ')}
        </Text>
      )}
      {h.follow_up_on && (
        <Text size="sm" c="dimmed">
          {t('handling.followUpOn', { date: fmt(h.follow_up_on, 'date') })}
        </Text>
      )}
      <SharedCovers h={h} currentId={h.violation_id} />
    </Stack>
  );
}

function Details({ v }: { v: Violation }) {
  const { t } = useTranslation('violations');
  const { can } = useSession();
  const fmt = useFormatDate();
  // The academic year the violation counts in; a handling stays open across the turn of the year.
  const year = useAcademicYear();
  const start = year.data ? yearStartOf(v.occurred_on, year.data.start_month_day) : null;
  return (
    <ViewOnlyList
      fields={[
        {
          label: t('fields.student'),
          value: can('students.view') ? (
            <Anchor component={Link} to={`/students/${v.student_id}`}>
              {v.student_name}
            </Anchor>
          ) : (
            v.student_name
          ),
        },
        { label: `${t('fields.nis')} / ${t('fields.nisn')}`, value: `${v.student_nis || '—'} / ${v.student_nisn || '—'}` },
        { label: t('fields.classThen'), value: v.class_name || t('noClass') },
        { label: t('fields.department'), value: v.department_name },
        { label: t('fields.when'), value: <span data-testid="occurred-at">{fmt(v.occurred_at, 'dateTime')}</span> },
        ...(start && year.data
          ? [
              {
                label: t('fields.year'),
                value: (
                  <span data-testid="violation-year" data-past={start < year.data.start}>
                    {start < year.data.start ? t('yearPast', { year: yearLabel(start) }) : yearLabel(start)}
                  </span>
                ),
              },
            ]
          : []),
        { label: t('fields.location'), value: v.location },
        {
          label: t('fields.type'),
          value: (
            <Group gap="xs" wrap="wrap">
              <span data-testid="type-name">{v.type_name}</span>
              <CategoryBadge name={v.category_name} colour={v.category_colour} />
            </Group>
          ),
        },
        { label: t('fields.points'), value: <PointsBadge points={v.points} /> },
        { label: t('fields.sanction'), value: v.sanction },
        { label: t('fields.description'), value: v.description ? <span style={{ whiteSpace: 'pre-wrap' }}>{v.description}</span> : '' },
        { label: t('fields.recordedBy'), value: v.recorded_by === null ? t('journal') : v.recorded_by_name },
        {
          label: t('fields.verification'),
          value: (
            <Stack gap={2}>
              <VerifiedBadge verified={!!v.verified_at} />
              {v.verified_at && (
                <Text size="xs" c="dimmed">
                  {t('verification.by', { name: v.verified_by_name || '—', date: fmt(v.verified_at, 'dateTime') })}
                </Text>
              )}
            </Stack>
          ),
        },
      ]}
    />
  );
}

export default function ViolationPage() {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const navigate = useNavigate();
  const id = Number(useParams().id) || 0;
  const q = useViolation(id);
  const verify = useVerifyViolation();
  const remove = useDeleteViolation();
  const resolve = useResolveViolation();
  const reopen = useReopenViolation();
  const removeHandling = useDeleteHandling();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [handlingToDelete, setHandlingToDelete] = useState<Handling | null>(null);
  const [adding, setAdding] = useState(false);

  if (!q.data) return <PageLoader />;
  const v = q.data;
  const handlings = v.handlings ?? [];
  const photos = v.photos ?? [];
  const resolved = v.handling_status === 'resolved';

  const run = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      notifySuccess(done);
    } catch (err) {
      notifyError(err, tc);
    }
  };

  return (
    <>
      <PageHeader
        title={t('detailTitle', { name: v.student_name })}
        description={`${v.type_name} · ${fmt(v.occurred_at, 'dateTime')}`}
        actions={
          <>
            {can('violations.verify') && !v.verified_at && (
              <Button
                variant="light"
                color="teal"
                leftSection={<IconRosetteDiscountCheck size={18} aria-hidden />}
                loading={verify.isPending}
                onClick={() => void run(() => verify.mutateAsync(v.id), t('verification.done'))}
                data-testid="verify"
              >
                {t('verification.verify')}
              </Button>
            )}
            <CorrectViolation violation={v} />
            {can('violations.delete') && (
              <Button variant="default" color="red" leftSection={<IconTrash size={18} aria-hidden />} onClick={() => setConfirmDelete(true)} data-testid="delete-violation">
                {tc('actions.delete')}
              </Button>
            )}
          </>
        }
      />
      <Stack gap="lg">
        <Card withBorder>
          <Stack gap="md">
            <Group gap="xs">
              <HandlingStatusBadge status={v.handling_status} />
              <VerifiedBadge verified={!!v.verified_at} />
            </Group>
            <Details v={v} />
          </Stack>
        </Card>

        {photos.length > 0 && (
          <Card withBorder>
            <Stack gap="sm">
              <Title order={2} size="h4">
                {t('photos.heading', { count: photos.length })}
              </Title>
              <Photos photos={photos} />
            </Stack>
          </Card>
        )}

        <Card withBorder data-testid="handling-card">
          <Stack gap="md">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Title order={2} size="h4">
                {t('handling.title')}
              </Title>
              <Group gap="sm">
                {can('handlings.create') && !resolved && (
                  <Button variant="light" leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setAdding(true)} data-testid="add-handling">
                    {t('handling.add')}
                  </Button>
                )}
                {can('handlings.resolve') && !resolved && handlings.length > 0 && (
                  <Button
                    color="teal"
                    leftSection={<IconCheck size={18} aria-hidden />}
                    loading={resolve.isPending}
                    onClick={() => void run(() => resolve.mutateAsync(v.id), t('handling.resolvedDone'))}
                    data-testid="resolve"
                  >
                    {t('handling.resolve')}
                  </Button>
                )}
                {can('handlings.reopen') && resolved && (
                  <Button
                    variant="default"
                    leftSection={<IconArrowBackUp size={18} aria-hidden />}
                    loading={reopen.isPending}
                    onClick={() => void run(() => reopen.mutateAsync(v.id), t('handling.reopened'))}
                    data-testid="reopen"
                  >
                    {t('handling.reopen')}
                  </Button>
                )}
              </Group>
            </Group>
            {handlings.length === 0 && !resolved && (
              <Text size="sm" c="dimmed" data-testid="no-handling">
                {can('handlings.resolve') ? t('handling.noneResolve') : t('handling.none')}
              </Text>
            )}
            {(handlings.length > 0 || resolved) && (
              <Timeline active={handlings.length + (resolved ? 1 : 0)} bulletSize={24} lineWidth={2} data-testid="handling-timeline">
                {handlings.map((h) => (
                  <Timeline.Item key={h.id}>
                    <HandlingItem h={h} onDelete={can('handlings.delete') ? () => setHandlingToDelete(h) : undefined} />
                  </Timeline.Item>
                ))}
                {resolved && (
                  <Timeline.Item bullet={<IconCircleCheck size={16} aria-hidden />} color="teal" data-testid="resolved-item">
                    <Text fw={600} size="sm">
                      {t('status.resolved')}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {[v.handled_at ? fmt(v.handled_at, 'dateTime') : '', v.handled_by_name ? t('handling.by', { name: v.handled_by_name }) : '']
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </Timeline.Item>
                )}
              </Timeline>
            )}
          </Stack>
        </Card>
      </Stack>

      <HandlingForm violationId={v.id} opened={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        opened={confirmDelete}
        title={t('delete.title')}
        confirmLabel={tc('actions.delete')}
        loading={remove.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(v.id);
            notifySuccess(t('delete.done'));
            navigate(paths.list, { replace: true });
          } catch (err) {
            setConfirmDelete(false);
            notifyError(err, tc);
          }
        }}
      >
        {t('delete.text', { type: v.type_name, name: v.student_name, n: num(v.points) })}
      </ConfirmDialog>
      <ConfirmDialog
        opened={!!handlingToDelete}
        title={t('handling.deleteTitle')}
        confirmLabel={tc('actions.delete')}
        loading={removeHandling.isPending}
        onClose={() => setHandlingToDelete(null)}
        onConfirm={async () => {
          const h = handlingToDelete!;
          try {
            await removeHandling.mutateAsync(h.id);
            notifySuccess(t('handling.deleted'));
          } catch (err) {
            notifyError(err, tc);
          } finally {
            setHandlingToDelete(null);
          }
        }}
      >
        {handlingToDelete &&
          t(
            handlingToDelete.shared && handlingToDelete.violation_count > 1
              ? 'handling.deleteShared'
              : handlings.length === 1 && !resolved
                ? 'handling.deleteLast'
                : 'handling.deleteText',
            {
              type: handlingToDelete.handling_type_name,
              date: fmt(handlingToDelete.handled_on, 'date'),
              count: handlingToDelete.violation_count,
            },
          )}
      </ConfirmDialog>
    </>
  );
}
