import '@mantine/charts/styles.css';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import '@/app/pageStyles';
import { Alert, Anchor, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BarChart, DonutChart, LineChart } from '@mantine/charts';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDownRight, IconArrowRight, IconArrowUpRight, IconBrandWhatsapp, IconClipboardCheck } from '@tabler/icons-react';
import { useFormatDate } from '@/lib/useFormatDate';
import { useFormatNumber } from '@/lib/numbers';
import { CaseCountsCard } from '@/features/cases/components/CaseCounts';
import { EARLY_WARNING_KINDS_OF, withQuery } from '@/features/violation-source/source';
import { change } from '../months';
import type { Dashboard, DashboardCount } from '../types';
import { ViolationCalendar } from './ViolationCalendar';

/** A Mantine colour name ("red") as a chart colour ("red.6"); hex values stay as they are. */
function chartColour(c: string): string {
  if (!c || c === 'gray') return 'gray.6';
  return c.startsWith('#') || c.includes('.') ? c : `${c}.6`;
}

function Section({ title, link, children, testId }: { title: string; link?: string; children: ReactNode; testId: string }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h5">
          {title}
        </Title>
        {link && (
          <Anchor component={Link} to={link} size="sm">
            {t('openList')}
          </Anchor>
        )}
      </Group>
      {children}
    </Card>
  );
}

/** A number with its change against the previous period: an arrow and words, not colour alone. */
function StatCard({ label, value, previousLabel, testId }: { label: string; value: DashboardCount; previousLabel?: string; testId: string }) {
  const { t } = useTranslation('dashboard');
  const num = useFormatNumber();
  const c = change(value.count, value.previous);
  const Icon = c?.dir === 'up' ? IconArrowUpRight : c?.dir === 'down' ? IconArrowDownRight : IconArrowRight;
  // More violations is worse: up is red, down green; the words say it either way.
  const colour = c?.dir === 'up' ? 'red.8' : c?.dir === 'down' ? 'green.8' : 'dimmed';
  return (
    <Card withBorder padding="sm" radius="md" component={Link} to={value.link} data-testid={testId} style={{ textDecoration: 'none', color: 'inherit' }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2} data-testid={`${testId}-count`}>
        {num(value.count)}
      </Text>
      {c && previousLabel && (
        <Group gap={4} wrap="nowrap" c={colour}>
          <Icon size={16} aria-hidden />
          <Text size="xs" c={colour}>
            {t(`change.${c.dir}`, { n: num(c.by), previous: num(value.previous ?? 0), than: previousLabel })}
          </Text>
        </Group>
      )}
    </Card>
  );
}

function CountLink({ to, label, count, testId }: { to: string; label: string; count: number; testId?: string }) {
  const num = useFormatNumber();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Anchor component={Link} to={to} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {label}
      </Anchor>
      <Text size="sm" fw={700}>
        {num(count)}
      </Text>
    </Group>
  );
}

const STATUSES = ['h', 's', 'i', 'a', 't'] as const;

/** The dashboard's figures, in the order the caller's role needs them. */
export default function DashboardView({ d, role }: { d: Dashboard; role: string }) {
  const { t } = useTranslation('dashboard');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const v = d.violations;

  const attendance = d.attendance && (
    <Section key="attendance" title={t('attendance.title')} link={d.attendance.link} testId="dash-attendance">
      {d.attendance.not_filled && d.class && (
        <Alert color={d.attendance.not_filled.count > 0 ? 'orange' : 'green'} mb="sm" icon={<IconClipboardCheck size={18} aria-hidden />} data-testid="dash-not-filled">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" fw={600}>
              {d.attendance.not_filled.count > 0 ? t('attendance.notFilled', { n: num(d.attendance.not_filled.count) }) : t('attendance.allFilled')}
            </Text>
            <Button component={Link} to={d.attendance.not_filled.link} size="xs" variant="light">
              {t('attendance.fill')}
            </Button>
          </Group>
        </Alert>
      )}
      <Text size="xs" c="dimmed" mb={6}>
        {t('attendance.recorded', { n: num(d.attendance.recorded), total: num(d.attendance.total) })}
      </Text>
      <SimpleGrid cols={{ base: 3, xs: 5 }} spacing="xs">
        {STATUSES.map((s) => (
          <Card key={s} withBorder padding={6} component={Link} to={d.attendance!.link} style={{ textDecoration: 'none', color: 'inherit' }} data-testid={`dash-att-${s}`}>
            <Text size="xs" c="dimmed" ta="center">
              {t(`attendance.status.${s}`)}
            </Text>
            <Text fw={700} ta="center">
              {num(d.attendance!.students[s])}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Section>
  );

  const caseload = d.caseload && (
    <Section key="caseload" title={t('caseload.title')} testId="dash-caseload">
      <Text size="xs" c="dimmed" mb={6} data-testid="dash-caseload-source">
        {t(`caseload.source.${d.caseload.source}`)}
      </Text>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs">
        <StatCard label={t('caseload.unhandled')} value={d.caseload.unhandled} testId="dash-unhandled" />
        <StatCard label={t('caseload.inProgress')} value={d.caseload.in_progress} testId="dash-in-progress" />
        <StatCard label={t('caseload.dueToday')} value={d.caseload.follow_ups_today} testId="dash-due-today" />
        <StatCard label={t('caseload.overdue')} value={d.caseload.follow_ups_overdue} testId="dash-overdue" />
      </SimpleGrid>
    </Section>
  );

  // A homeroom teacher's attendance follow-up: their class's automatic alpha/late violations still open.
  const followUp = d.attendance_follow_up && (
    <Section key="follow-up" title={t('followUp.title')} testId="dash-follow-up">
      <SimpleGrid cols={2} spacing="xs">
        <StatCard label={t('caseload.unhandled')} value={d.attendance_follow_up.unhandled} testId="dash-fu-unhandled" />
        <StatCard label={t('caseload.inProgress')} value={d.attendance_follow_up.in_progress} testId="dash-fu-in-progress" />
      </SimpleGrid>
    </Section>
  );

  const counts = v && (
    <SimpleGrid key="counts" cols={{ base: 1, xs: 3 }} spacing="sm" data-testid="dash-counts">
      <StatCard label={t('counts.today')} value={v.today} previousLabel={t('counts.prevDay')} testId="dash-today" />
      <StatCard label={t('counts.week')} value={v.week} previousLabel={t('counts.prevWeek')} testId="dash-week" />
      <StatCard label={t('counts.month')} value={v.month} previousLabel={t('counts.prevMonth')} testId="dash-month" />
    </SimpleGrid>
  );

  const maxType = Math.max(1, ...(v?.top_types.map((x) => x.count) ?? []));
  const charts = v && (
    <SimpleGrid key="charts" cols={{ base: 1, md: 2 }} spacing="sm">
      <Section title={t('byCategory.title')} link={v.month.link} testId="dash-by-category">
        {v.by_category.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('empty')}
          </Text>
        ) : (
          <Group align="center" wrap={phone ? 'wrap' : 'nowrap'} justify="center">
            <DonutChart
              size={phone ? 120 : 140}
              thickness={22}
              withTooltip={false}
              data={v.by_category.map((c) => ({ name: c.name, value: c.count, color: chartColour(c.colour) }))}
              aria-hidden
            />
            <Stack gap={4} style={{ flex: 1, minWidth: 160 }}>
              {v.by_category.map((c) => (
                <Group key={c.id} gap={6} wrap="nowrap">
                  <span style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${chartColour(c.colour).replace('.', '-')})`, flexShrink: 0 }} aria-hidden />
                  <div style={{ flex: 1 }}>
                    <CountLink to={c.link} label={c.name} count={c.count} />
                  </div>
                </Group>
              ))}
            </Stack>
          </Group>
        )}
      </Section>
      <Section title={t('topTypes.title')} link={v.month.link} testId="dash-top-types">
        {v.top_types.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('empty')}
          </Text>
        ) : (
          <Stack gap={8}>
            {v.top_types.map((ty) => (
              <div key={ty.id}>
                <CountLink to={ty.link} label={ty.name} count={ty.count} />
                <Progress value={(ty.count / maxType) * 100} size="sm" color="red.6" aria-hidden />
              </div>
            ))}
          </Stack>
        )}
      </Section>
    </SimpleGrid>
  );

  const classes = v && d.scope === 'school' && (
    <Section key="classes" title={t('classes.title')} link={v.month.link} testId="dash-classes">
      {v.classes_by_points.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        <>
          <BarChart
            h={Math.max(160, v.classes_by_points.length * 30)}
            data={v.classes_by_points.map((c) => ({ class: c.name, points: c.points }))}
            dataKey="class"
            orientation="vertical"
            yAxisProps={{ width: phone ? 80 : 110 }}
            xAxisProps={{ tickCount: phone ? 3 : 5 }}
            series={[{ name: 'points', label: t('classes.points'), color: 'orange.6' }]}
            gridAxis="x"
            barProps={{ onClick: (e: { class?: string }) => {
              const c = v.classes_by_points.find((x) => x.name === e?.class);
              if (c) navigate(c.link);
            }, cursor: 'pointer' }}
            aria-hidden
          />
          <Group gap="xs" mt="xs" wrap="wrap">
            {v.classes_by_points.map((c) => (
              <Anchor key={c.id} component={Link} to={c.link} size="xs" data-testid="dash-class-link">
                {t('classes.item', { name: c.name, n: num(c.points) })}
              </Anchor>
            ))}
          </Group>
        </>
      )}
    </Section>
  );

  const trendLink = v?.trend.length ? withQuery('/violations', { from: v.trend[0]!.week, to: d.today, source: d.source }) : undefined;
  const trend = v && (
    <Section key="trend" title={t('trend.title')} link={trendLink} testId="dash-trend">
      <LineChart
        h={phone ? 160 : 200}
        data={v.trend.map((w) => ({ week: fmt(w.week, 'shortDate').replace(/\s\d{4}$/, ''), count: w.count }))}
        dataKey="week"
        series={[{ name: 'count', label: t('trend.count'), color: 'red.6' }]}
        curveType="monotone"
        xAxisProps={{ interval: phone ? 3 : 1 }}
        yAxisProps={{ width: 32, allowDecimals: false }}
        activeDotProps={{ r: 6, cursor: 'pointer' }}
        lineChartProps={{ onClick: (e: { activeTooltipIndex?: number }) => {
          const w = e?.activeTooltipIndex !== undefined ? v.trend[e.activeTooltipIndex] : undefined;
          if (w) navigate(w.link);
        } }}
      />
      <Text size="xs" c="dimmed" mt={4}>
        {t('trend.caption', { n: num(v.trend.reduce((a, w) => a + w.count, 0)) })}
      </Text>
    </Section>
  );

  const nearest = v && (
    <Section key="nearest" title={t('nearest.title')} testId="dash-nearest">
      {v.nearest_sp.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        <Stack gap={6}>
          {v.nearest_sp.map((n) => (
            <Group key={n.student_id} justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Anchor component={Link} to={n.link} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="dash-nearest-student">
                  {n.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {t('nearest.detail', { cls: n.class_name, points: num(n.points) })}
                </Text>
              </Stack>
              <Badge variant="light" color="orange" style={{ flexShrink: 0 }}>
                {t('nearest.toGo', { n: num(n.points_to_go), level: n.next_level_name || `SP ${n.next_level}` })}
              </Badge>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );

  const letters = d.letters && (
    <Section key="letters" title={t('letters.title')} link={d.letters.total.link} testId="dash-letters">
      <Stack gap={4}>
        {d.letters.by_status.map((s) => (
          <CountLink key={s.status} to={s.link} label={t(`letters.status.${s.status}`)} count={s.count} testId={`dash-letters-${s.status}`} />
        ))}
      </Stack>
    </Section>
  );

  const early = d.early_warnings && (
    <Section key="early" title={t('early.title')} link={d.early_warnings.link} testId="dash-early">
      <Stack gap={4}>
        {EARLY_WARNING_KINDS_OF[d.source].map((k) => (
          <CountLink key={k} to={withQuery(d.early_warnings!.link, { kind: k })} label={t(`early.${k}`)} count={d.early_warnings!.counts[k]} testId={`dash-early-${k}`} />
        ))}
      </Stack>
    </Section>
  );

  // Failed parent messages: only for those who may send them again (parent_messages.manage).
  const pmFailed = typeof d.parent_messages_failed === 'number' && (
    <Card key="pm-failed" withBorder padding="sm" radius="md" component={Link} to="/pesan-orang-tua?status=failed" data-testid="dash-pm-failed" style={{ textDecoration: 'none', color: 'inherit' }}>
      <Group gap="sm" wrap="nowrap">
        <IconBrandWhatsapp size={22} aria-hidden color={d.parent_messages_failed > 0 ? 'var(--mantine-color-red-8)' : 'var(--mantine-color-dimmed)'} />
        <Text size="sm" fw={d.parent_messages_failed > 0 ? 700 : 400} c={d.parent_messages_failed > 0 ? 'red.8' : undefined}>
          {t('parentMessagesFailed', { n: num(d.parent_messages_failed) })}
        </Text>
      </Group>
    </Card>
  );

  // Counts only: the principal sees no case and no name (docs/cases.md).
  const cases = d.cases && <CaseCountsCard key="cases" counts={d.cases} />;
  // Achievements beside the violations.
  const achievements = d.achievements && (
    <Section key="achievements" title={t('achievements.title')} link="/achievements" testId="dash-achievements">
      <Stack gap={4}>
        <CountLink to={d.achievements.month.link} label={t('achievements.month')} count={d.achievements.month.count} testId="dash-achievements-month" />
        <CountLink to={d.achievements.awaiting.link} label={t('achievements.awaiting')} count={d.achievements.awaiting.count} testId="dash-achievements-awaiting" />
      </Stack>
    </Section>
  );

  const side = (
    <SimpleGrid key="side" cols={{ base: 1, md: d.achievements ? 4 : 3 }} spacing="sm">
      {nearest}
      {letters}
      {early}
      {achievements}
    </SimpleGrid>
  );

  const calendar = v && (
    <Section key="calendar" title={t('calendar.title')} testId="dash-calendar">
      <ViolationCalendar today={d.today} source={d.source} />
    </Section>
  );

  // A homeroom teacher's day starts with the attendance still to fill; a counselor's with
  // their open cases.
  const order: ReactNode[] =
    role === 'wali_kelas'
      ? [attendance, followUp, counts, charts, side, trend, calendar, pmFailed]
      : role === 'bk'
        ? [caseload, pmFailed, counts, attendance, charts, side, cases, classes, trend, calendar]
        : [counts, pmFailed, cases, attendance, charts, classes, side, trend, calendar, caseload];
  return (
    <Stack gap="sm" data-testid={`dashboard-${d.scope}`} data-source={d.source}>
      {d.class && (
        <Text size="sm" c="dimmed" data-testid="dash-class">
          {t('classScope', { name: d.class.name })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('period', { from: fmt(d.month_from, 'shortDate'), to: fmt(d.today, 'shortDate') })}
      </Text>
      {order.filter(Boolean)}
    </Stack>
  );
}
