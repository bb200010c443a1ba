import { lazy, Suspense, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Anchor, Badge, Button, Card, Group, Image, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { excusesApi, type Excuse } from '../api';

const RefuseExcuseModal = lazy(() => import('./RefuseExcuseModal'));

export const excuseKeys = { pending: (classId: number) => ['excuses', 'pending', classId] as const };

/** The dates (and hours) an excuse covers, as staff and guardians read them. */
export function ExcuseSpan({ e }: { e: Excuse }) {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const days = e.from === e.to ? fmt(e.from, 'weekdayDate') : `${fmt(e.from, 'shortDate')} – ${fmt(e.to, 'shortDate')}`;
  return (
    <Text size="sm">
      {days}
      {e.lesson_hours?.length ? ` · ${t('excuses.hours', { hours: e.lesson_hours.join(', ') })}` : ` · ${t('excuses.wholeDay')}`}
    </Text>
  );
}

/**
 * Pending parents' excuses on the attendance form: approve in one tap (the hours become S or
 * I, set by the excuse), or refuse with a reason. Shown to whoever may take attendance.
 */
export function PendingExcuses({ classId }: { classId: number }) {
  const { can } = useSession();
  const enabled = can('attendance.view');
  const q = useQuery({ queryKey: excuseKeys.pending(classId), queryFn: ({ signal }) => excusesApi.pending(classId, signal), enabled });
  const list = q.data?.data ?? [];
  // The card's texts (the portal's catalogue) are asked for only when there is something to show.
  if (!enabled || list.length === 0) return null;
  return <PendingExcusesCard list={list} />;
}

function PendingExcusesCard({ list }: { list: Excuse[] }) {
  const { t } = useTranslation('portal');
  const { can } = useSession();
  const qc = useQueryClient();
  const [refusing, setRefusing] = useState<Excuse | null>(null);
  const done = (msg: string) => {
    notifySuccess(msg);
    void qc.invalidateQueries({ queryKey: ['excuses'] });
    void qc.invalidateQueries({ queryKey: ['attendance'] });
  };
  const approve = useMutation({
    mutationFn: (e: Excuse) => excusesApi.approve(e.id),
    onSuccess: (_, e) => done(t('excuses.approvedFor', { name: e.student_name })),
    onError: (err) => notifyError(err, t),
  });
  const refuse = useMutation({
    mutationFn: ({ e, reason }: { e: Excuse; reason: string }) => excusesApi.refuse(e.id, reason),
    onSuccess: (_, { e }) => {
      setRefusing(null);
      done(t('excuses.refusedFor', { name: e.student_name }));
    },
    onError: (err) => notifyError(err, t),
  });
  const decide = can('attendance.record');
  return (
    <Card withBorder radius="md" p="sm" mb="sm" data-testid="pending-excuses">
      <Text fw={600} mb="xs">
        {t('excuses.pendingTitle', { count: list.length })}
      </Text>
      <Stack gap="xs">
        {list.map((e) => (
          <Card key={e.id} withBorder p="xs" radius="sm" data-testid="pending-excuse">
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Text size="sm" fw={600}>
                    {e.student_name}
                  </Text>
                  <Badge color={e.kind === 'sakit' ? 'blue' : 'grape'} variant="light">
                    {t(`excuses.kind.${e.kind}`)}
                  </Badge>
                </Group>
                <ExcuseSpan e={e} />
                <Text size="sm" c="dimmed">
                  {e.reason} — {e.guardian_name}
                </Text>
                {e.photos > 0 && (
                  <Group gap={4} mt={4}>
                    {Array.from({ length: e.photos }, (_, i) => (
                      <Anchor key={i} href={excusesApi.photoUrl(e.id, i + 1)} target="_blank" rel="noopener">
                        <Image src={excusesApi.photoUrl(e.id, i + 1, true)} w={48} h={48} radius="sm" alt={t('excuses.photo', { n: i + 1 })} />
                      </Anchor>
                    ))}
                  </Group>
                )}
              </div>
              {decide && (
                <Group gap="xs">
                  <Button size="sm" color="teal" onClick={() => approve.mutate(e)} loading={approve.isPending && approve.variables?.id === e.id} data-testid="excuse-approve">
                    {t('excuses.approve')}
                  </Button>
                  <Button size="sm" variant="default" onClick={() => setRefusing(e)}>
                    {t('excuses.refuse')}
                  </Button>
                </Group>
              )}
            </Group>
          </Card>
        ))}
      </Stack>
      {refusing && (
        <Suspense fallback={null}>
          <RefuseExcuseModal onClose={() => setRefusing(null)} onRefuse={(reason) => refuse.mutate({ e: refusing, reason })} pending={refuse.isPending} />
        </Suspense>
      )}
    </Card>
  );
}
