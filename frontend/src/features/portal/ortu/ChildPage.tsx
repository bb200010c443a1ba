import './pageStyles';
import { useState } from 'react';
import { jakartaDay } from '@/lib/jakartaDay';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Anchor, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NotFoundPage } from '@/components/errors';
import { PageLoader } from '@/components/PageLoader';
import { notifyError } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { isApiError } from '@/api/errors';
import { portalApi, portalViewsApi, type AttendanceCounts, type PortalChildDetail, type PortalLetter } from '../api';
import { PORTAL_BASE, portalKeys } from './paths';
import { ExcusesTab } from './ExcusesTab';

const STATUSES = ['h', 's', 'i', 'a', 't'] as const;
const COLOURS: Record<(typeof STATUSES)[number], string> = { h: 'teal', s: 'blue', i: 'grape', a: 'red', t: 'orange' };

/** This month in Jakarta, YYYY-MM. */
function thisMonth(): string {
  return jakartaDay().slice(0, 7);
}

function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

function Counts({ counts }: { counts: AttendanceCounts }) {
  const { t } = useTranslation('portal');
  return (
    <Group gap={6}>
      {STATUSES.filter((s) => counts[s] > 0).map((s) => (
        <Badge key={s} color={COLOURS[s]} variant="light">
          {t(`ortu.attendance.status.${s}`)} {counts[s]}
        </Badge>
      ))}
    </Group>
  );
}

/** The child's verified achievements. */
function Achievements({ d }: { d: PortalChildDetail }) {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  return (
    <Card withBorder radius="md" p="sm" data-testid="portal-achievements">
      <Text size="sm" fw={600} mb={4}>
        {t('ortu.child.achievements')}
      </Text>
      <Stack gap={6}>
        {d.achievements.map((a) => (
          <Group key={a.id} justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text size="sm" fw={500}>
                {a.type}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`ortu.achievementLevel.${a.level}`)} · {fmt(a.date)}
              </Text>
            </div>
            <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
              {t('ortu.child.achievementPoints', { count: a.points })}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

/** Points this year against the SP levels. */
function Standing({ d }: { d: PortalChildDetail }) {
  const { t } = useTranslation('portal');
  const top = Math.max(1, ...d.thresholds.map((x) => x.min_points), d.standing.total);
  return (
    <Card withBorder radius="md">
      <Group justify="space-between">
        <Text fw={600}>{t('ortu.child.pointsThisYear')}</Text>
        <Text fw={700} size="xl" data-testid="portal-points">
          {d.standing.total}
        </Text>
      </Group>
      <Progress value={(100 * d.standing.total) / top} color={d.standing.level > 0 ? 'red' : 'orange'} mt="xs" aria-label={t('ortu.child.progress')} />
      <Group justify="space-between" mt={4}>
        {d.thresholds.map((x) => (
          <Text key={x.level} size="xs" c={d.standing.total >= x.min_points ? 'red' : 'dimmed'}>
            {x.name} ≥ {x.min_points}
          </Text>
        ))}
      </Group>
      {d.standing.points_to_next !== null && (
        <Text size="sm" mt="xs">
          {t('ortu.child.toNext', { count: d.standing.points_to_next, level: d.standing.next_level_name })}
        </Text>
      )}
    </Card>
  );
}

function LetterCard({ letter, childId, student }: { letter: PortalLetter; childId: number; student: boolean }) {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const qc = useQueryClient();
  const ack = useMutation({
    mutationFn: () => portalViewsApi.acknowledge(letter.id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: portalKeys.child(childId) }),
    onError: (err) => notifyError(err, t),
  });
  return (
    <Card withBorder radius="md" data-testid="portal-letter">
      <Text fw={600}>{letter.name}</Text>
      <Text size="sm" c="dimmed">
        {letter.number ?? ''} {fmt(letter.sent_at ?? letter.issued_at)}
      </Text>
      <Group mt="sm" gap="sm">
        <Button component="a" href={portalViewsApi.letterPdfUrl(letter.id)} target="_blank" rel="noopener" variant="default" size="sm">
          {t('ortu.letters.pdf')}
        </Button>
        {letter.acknowledged_at ? (
          <Text size="sm" c="teal" data-testid="portal-acknowledged">
            {t('ortu.letters.acknowledged', { at: fmt(letter.acknowledged_at, 'dateTime') })}
          </Text>
        ) : student ? null : (
          <Button size="sm" onClick={() => ack.mutate()} loading={ack.isPending} data-testid="portal-acknowledge">
            {t('ortu.letters.acknowledge')}
          </Button>
        )}
      </Group>
    </Card>
  );
}

function AttendanceTab({ childId }: { childId: number }) {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const [month, setMonth] = useState(thisMonth);
  const [open, setOpen] = useState<string | null>(null);
  const q = useQuery({ queryKey: portalKeys.attendance(childId, month), queryFn: ({ signal }) => portalViewsApi.attendance(childId, month, signal) });
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <ActionIcon variant="default" onClick={() => setMonth(shiftMonth(month, -1))} aria-label={t('ortu.attendance.previous')}>
          <IconChevronLeft size={16} />
        </ActionIcon>
        <Text fw={600}>{fmt(`${month}-01`, 'date').replace(/^\d+ /, '')}</Text>
        <ActionIcon variant="default" onClick={() => setMonth(shiftMonth(month, 1))} aria-label={t('ortu.attendance.next')}>
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      {q.data?.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('ortu.attendance.none')}
        </Text>
      )}
      {q.data?.data.map((d) => (
        <Card key={d.date} withBorder p="xs" radius="md" onClick={() => setOpen(open === d.date ? null : d.date)} style={{ cursor: 'pointer' }} data-testid="portal-day">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{fmt(d.date, 'weekdayDate')}</Text>
            <Counts counts={d.counts} />
          </Group>
          {open === d.date && (
            <SimpleGrid cols={5} spacing={4} mt="xs">
              {d.hours.map((h) => (
                <Text key={h.hour} size="xs" ta="center" data-testid="portal-hour">
                  {t('ortu.attendance.hour', { hour: h.hour })}: <b>{h.status}</b>
                </Text>
              ))}
            </SimpleGrid>
          )}
        </Card>
      ))}
    </Stack>
  );
}

const TAB_STYLES = {
  list: { flexWrap: 'nowrap', overflowX: 'auto' },
  tab: { paddingInline: 'var(--mantine-spacing-xs)' },
} as const;

/** One child: standing, violations, letters, attendance, excuses. */
export function ChildPage() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const id = Number(useParams().id);
  const q = useQuery({ queryKey: portalKeys.child(id), queryFn: ({ signal }) => portalViewsApi.child(id, signal), retry: false });
  const me = useQuery({ queryKey: portalKeys.me, queryFn: ({ signal }) => portalApi.me(signal) });
  const student = !!me.data?.student_id;
  if (q.isPending) return <PageLoader />;
  if (q.isError) {
    if (isApiError(q.error) && q.error.status === 404) return <NotFoundPage />;
    throw q.error;
  }
  const d = q.data;
  return (
    <Stack>
      <Anchor component={Link} to={PORTAL_BASE + '/'} size="sm">
        ← {t('ortu.child.back')}
      </Anchor>
      <div>
        <Title order={1} size="h3" data-testid="portal-child-name">
          {d.name}
        </Title>
        <Text size="sm" c="dimmed">
          {d.class_name}
        </Text>
      </div>
      <Standing d={d} />
      {d.shown.attendance && (
        <Card withBorder radius="md" p="sm">
          <Text size="sm" fw={600} mb={4}>
            {t('ortu.child.attendanceThisYear')}
          </Text>
          {STATUSES.some((s) => d.attendance[s] > 0) ? (
            <Counts counts={d.attendance} />
          ) : (
            <Text size="sm" c="dimmed" data-testid="portal-attendance-none">
              {t('ortu.child.attendanceNone')}
            </Text>
          )}
        </Card>
      )}
      {d.shown.achievements && d.achievements.length > 0 && <Achievements d={d} />}
      {/* Four tabs on one line at 360 px (the default padding wrapped the fourth); a longer label scrolls sideways. */}
      <Tabs
        defaultValue={d.shown.violations ? 'violations' : d.shown.letters ? 'letters' : d.shown.attendance ? 'attendance' : 'excuses'}
        keepMounted={false}
        styles={TAB_STYLES}
      >
        <Tabs.List grow>
          {d.shown.violations && <Tabs.Tab value="violations">{t('ortu.tabs.violations')}</Tabs.Tab>}
          {d.shown.letters && <Tabs.Tab value="letters">{t('ortu.tabs.letters')}</Tabs.Tab>}
          {d.shown.attendance && <Tabs.Tab value="attendance">{t('ortu.tabs.attendance')}</Tabs.Tab>}
          {!student && <Tabs.Tab value="excuses">{t('ortu.tabs.excuses')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="violations" pt="sm">
          <Stack gap="xs">
            {d.violations.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('ortu.violations.none')}
              </Text>
            )}
            {d.violations.map((v) => (
              <Card key={v.id} withBorder p="xs" radius="md">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div>
                    <Text size="sm" fw={600}>
                      {v.type}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {fmt(v.date)}
                      {v.sanction ? ` · ${t('ortu.violations.sanction')}: ${v.sanction}` : ''}
                      {v.recorder ? ` · ${t('ortu.violations.recorder', { name: v.recorder })}` : ''}
                    </Text>
                  </div>
                  <Badge color="orange" variant="light">
                    +{v.points}
                  </Badge>
                </Group>
              </Card>
            ))}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="letters" pt="sm">
          <Stack gap="xs">
            {d.letters.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('ortu.letters.none')}
              </Text>
            )}
            {d.letters.map((l) => (
              <LetterCard key={l.id} letter={l} childId={d.id} student={student} />
            ))}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="attendance" pt="sm">
          <AttendanceTab childId={d.id} />
        </Tabs.Panel>
        <Tabs.Panel value="excuses" pt="sm">
          <ExcusesTab childId={d.id} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
