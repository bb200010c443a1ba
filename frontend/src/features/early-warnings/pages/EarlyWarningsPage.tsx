import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Card, Group, Select, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconClipboardPlus, IconUser } from '@tabler/icons-react';
import { DataList, usePhone } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { CaseOverdueCard } from '@/features/cases/components/CaseOverdue';
import { useClasses } from '@/features/students/hooks';
import { useScreenSource } from '@/features/violation-source/hooks';
import { SourceControl } from '@/features/violation-source/SourceControl';
import { EARLY_WARNING_KINDS_OF, kindWithin } from '@/features/violation-source/source';
import { useFormatNumber } from '@/lib/numbers';
import { useUrlFilters } from '@/lib/urlFilters';
import { useFormatDate } from '@/lib/useFormatDate';
import { earlyWarningFilters, parseKind, type EarlyWarning, type EarlyWarningFilters, type EarlyWarningKind } from '../api';
import { useEarlyWarnings } from '../hooks';
import '@/app/pageStyles';

const KIND_COLOUR: Record<EarlyWarningKind, string> = {
  follow_up_due: 'red',
  absent_streak: 'orange',
  late_repeat: 'cyan',
  repeat_type: 'grape',
  near_level: 'yellow',
};

/** The page of students who need attention before a warning letter is due. */
export default function EarlyWarningsPage() {
  const { t } = useTranslation('early-warnings');
  const num = useFormatNumber();
  const phone = usePhone();
  const { filters, update } = useUrlFilters(earlyWarningFilters);
  // Behaviour and attendance apart: the URL's source, else the user's own.
  const { source, remember } = useScreenSource(filters.source);
  const kinds = EARLY_WARNING_KINDS_OF[source ?? 'all'] as readonly EarlyWarningKind[];
  const kind = source ? kindWithin(filters.kind, source) : null;
  const { classId, page } = filters;
  const list = useEarlyWarnings(source, kind, classId, page);
  const classes = useClasses();
  const rows = list.data?.data ?? [];
  const counts = list.data?.counts;
  const rules = list.data?.rules;

  // Every change names the source on screen; a tab the new source does not have goes back to all of its kinds.
  const set = (change: Partial<EarlyWarningFilters>) => {
    const next = { source, kind, ...change };
    update({ ...change, source: next.source, kind: next.source ? kindWithin(next.kind, next.source) : next.kind });
  };

  const tabs = (
    <>
      {/* On a phone the tabs scroll sideways in one row rather than taking the screen. */}
      <Tabs.List data-testid="ew-tabs" style={{ flexWrap: phone ? 'nowrap' : 'wrap', overflowX: phone ? 'auto' : undefined, gap: 'var(--mantine-spacing-xs)' }}>
        <Tabs.Tab value="all" style={{ flexShrink: 0 }} data-testid="ew-tab-all" rightSection={counts && <Badge variant="light" color="gray" size="sm" data-testid="ew-count-total">{num(counts.total)}</Badge>}>
          {t('tabs.all')}
        </Tabs.Tab>
        {kinds.map((k) => (
          <Tabs.Tab
            key={k}
            value={k}
            style={{ flexShrink: 0 }}
            data-testid={`ew-tab-${k}`}
            rightSection={counts && <Badge variant="light" color={KIND_COLOUR[k]} size="sm" data-testid={`ew-count-${k}`}>{num(counts[k])}</Badge>}
          >
            {t(`kind.${k}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description', {
          points: num(list.data?.threshold ?? 10),
          streak: num(rules?.absent_streak_days ?? 3),
          late: num(rules?.late_times ?? 5),
          window: num(rules?.late_school_days ?? 10),
        })}
      />
      {list.data && <CaseOverdueCard list={list.data.case_stages_overdue ?? []} count={list.data.case_stages_overdue_count ?? null} />}
      {/* The list below is the chosen tab's panel, so each tab controls a panel that exists. */}
      <Tabs value={kind ?? 'all'} onChange={(v) => set({ kind: parseKind(v) })} variant="pills" keepMounted={false}>
      {/* data-source: the source of the rows on screen (the previous ones stay until the new arrive). */}
      <Card withBorder padding={0} data-testid="ew-list" data-source={list.data?.source ?? ''}>
        <Stack gap="sm" p="md">
          <SourceControl
            value={source}
            onChange={(s) => {
              remember(s);
              set({ source: s });
            }}
          />
          {tabs}
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('filters.class')}
              placeholder={t('filters.allClasses')}
              data={(classes.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
              value={classId ? String(classId) : null}
              onChange={(v) => set({ classId: v ? Number(v) : null })}
              searchable
              clearable
              w={{ base: '100%', xs: 240 }}
              data-testid="ew-filter-class"
            />
            {counts && (
              <Text size="sm" c="dimmed" data-testid="ew-summary">
                {t('summary', { count: counts.total, students: num(counts.total) })}
              </Text>
            )}
          </Group>
        </Stack>

        <Tabs.Panel value={kind ?? 'all'}>
          <DataList
            query={list}
            rows={rows}
            rowKey={(w) => `${w.kind}-${w.student_id}-${rows.indexOf(w)}`}
            narrow={phone}
            label={t('title')}
            testId="ew-table"
            minWidth={820}
            highlightOnHover
            head={
              <>
                <Table.Th>{t('fields.student')}</Table.Th>
                <Table.Th>{t('fields.class')}</Table.Th>
                <Table.Th>{t('fields.kind')}</Table.Th>
                <Table.Th>{t('fields.details')}</Table.Th>
                <Table.Th>{t('fields.action')}</Table.Th>
              </>
            }
            row={(w) => (
              <Table.Tr data-testid="ew-row" data-kind={w.kind}>
                <Table.Td>
                  <StudentCell w={w} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{w.class_name || t('noClass')}</Text>
                </Table.Td>
                <Table.Td>
                  <KindBadge kind={w.kind} />
                </Table.Td>
                <Table.Td>
                  <Details w={w} />
                </Table.Td>
                <Table.Td>
                  <ActionButton w={w} />
                </Table.Td>
              </Table.Tr>
            )}
            card={(w) => (
              <Stack gap={6} px="md" py="sm" data-testid="ew-row" data-kind={w.kind} style={{ minWidth: 0 }}>
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <StudentCell w={w} />
                  <KindBadge kind={w.kind} />
                </Group>
                <Details w={w} />
                <ActionButton w={w} fullWidth />
              </Stack>
            )}
            empty={{
              message: kind || classId ? t('emptyFiltered') : t('empty'),
              onClearFilters: kind || classId ? () => set({ kind: null, classId: null }) : undefined,
              testId: 'ew-empty',
            }}
            meta={list.data?.meta}
            onPage={(p) => set({ page: p })}
          />
        </Tabs.Panel>
      </Card>
      </Tabs>
    </>
  );
}

function KindBadge({ kind }: { kind: EarlyWarningKind }) {
  const { t } = useTranslation('early-warnings');
  return (
    <Badge
      variant="light"
      color={KIND_COLOUR[kind]}
      tt="none"
      style={{ flexShrink: 0, maxWidth: 'none' }}
      styles={{ root: { height: 'auto', paddingBlock: 2 }, label: { whiteSpace: 'normal', overflow: 'visible' } }}
    >
      {t(`kind.${kind}`)}
    </Badge>
  );
}

function StudentCell({ w }: { w: EarlyWarning }) {
  const { t } = useTranslation('early-warnings');
  const ids = [w.student_nis && t('fields.nis', { nis: w.student_nis }), w.student_nisn && t('fields.nisn', { nisn: w.student_nisn })].filter(Boolean).join(' · ');
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Anchor component={Link} to={`/students/${w.student_id}`} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="ew-student">
        {w.student_name}
      </Anchor>
      {ids && (
        <Text size="xs" c="dimmed">
          {ids}
        </Text>
      )}
    </Stack>
  );
}

/** What the warning is about, in a sentence or two. */
function Details({ w }: { w: EarlyWarning }) {
  const { t } = useTranslation('early-warnings');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  switch (w.kind) {
    case 'near_level':
      return (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {t('details.toGo', { count: w.points_to_next ?? 0, points: num(w.points_to_next ?? 0), level: w.next_level_name || `SP ${w.next_level ?? ''}` })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('details.points', { count: w.points ?? 0, points: num(w.points ?? 0) })}
          </Text>
        </Stack>
      );
    case 'absent_streak':
      return (
        <Stack gap={2}>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={600}>
              {t('details.streak', { count: w.streak_days ?? 0, days: num(w.streak_days ?? 0) })}
            </Text>
            {w.ongoing && (
              <Badge size="xs" color="red" variant="outline">
                {t('details.ongoing')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('details.range', { from: fmt(w.streak_from, 'shortDate'), to: fmt(w.streak_to, 'shortDate') })}
          </Text>
        </Stack>
      );
    case 'late_repeat':
      return (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {t('details.late', { count: w.late_days ?? 0, times: num(w.late_days ?? 0), days: num(w.window_days ?? 0) })}
          </Text>
          <Text size="xs" c="dimmed">
            {w.dates.map((d) => fmt(d, 'shortDate')).join(', ')}
          </Text>
        </Stack>
      );
    case 'repeat_type':
      return (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {t('details.repeat', { type: w.type_name, count: w.dates.length, times: num(w.dates.length) })}
          </Text>
          <Text size="xs" c="dimmed">
            {w.dates.map((d) => fmt(d, 'shortDate')).join(', ')}
          </Text>
          {w.types.length > 1 && (
            <Text size="xs" c="dimmed" data-testid="ew-more-types">
              {t('details.moreTypes', { types: w.types.slice(1).map((x) => t('details.typeTimes', { type: x.type_name, times: num(x.times) })).join(', ') })}
            </Text>
          )}
        </Stack>
      );
    case 'follow_up_due':
      return (
        <Stack gap={0}>
          <Text size="sm" fw={600} c={w.overdue_days ? 'red' : undefined}>
            {w.overdue_days
              ? t('details.overdue', { date: fmt(w.follow_up_on, 'shortDate'), count: w.overdue_days, days: num(w.overdue_days) })
              : t('details.dueToday', { date: fmt(w.follow_up_on, 'shortDate') })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('details.violation', { type: w.type_name, date: fmt(w.occurred_on, 'shortDate') })}
          </Text>
          {(w.follow_ups ?? 0) > 1 && (
            <Text size="xs" c="dimmed">
              {t('details.moreFollowUps', { count: (w.follow_ups ?? 1) - 1, n: num((w.follow_ups ?? 1) - 1) })}
            </Text>
          )}
        </Stack>
      );
  }
}

function ActionButton({ w, fullWidth = false }: { w: EarlyWarning; fullWidth?: boolean }) {
  const { t } = useTranslation('early-warnings');
  const handling = w.action.kind === 'record_handling';
  return (
    <Button
      component={Link}
      to={w.action.path}
      size="xs"
      variant={handling ? 'filled' : 'light'}
      leftSection={handling ? <IconClipboardPlus size={14} aria-hidden /> : <IconUser size={14} aria-hidden />}
      fullWidth={fullWidth}
      data-testid="ew-action"
      data-action={w.action.kind}
    >
      {t(`action.${w.action.kind}`)}
    </Button>
  );
}
