import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Card, Chip, Group, Modal, ScrollArea, Select, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconPlayerPause, IconRefresh, IconSettings } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { DataList } from '@/components/DataList';
import { DateRangeFilter } from '@/components/DateRangeFilter';
import { PageHeader } from '@/components/PageHeader';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useClasses } from '@/features/students/hooks';
import { useFormatNumber } from '@/lib/numbers';
import { useUrlFilters } from '@/lib/urlFilters';
import { useFormatDate } from '@/lib/useFormatDate';
import { EVENTS, isFiltered, logFilters, OUTCOMES, STATUSES, type ParentEvent, type ParentMessage, type ParentMessageStatus } from '../api';
import { OutcomeBadge, StatusBadge } from '../components/Badges';
import { MessageDrawer } from '../components/MessageDrawer';
import { PhoneText } from '../components/PhoneText';
import { StudentSearch } from '../components/StudentFilter';
import { hasQueued, totalCount, truncateAnswer } from '../display';
import { useParentMessages, useRetryFailed } from '../hooks';
import '@/app/pageStyles';

const PER_PAGE = 25;

function LastAnswer({ m }: { m: ParentMessage }) {
  const { t } = useTranslation('parent-messages');
  if (!m.last_answer && !m.last_outcome) {
    return (
      <Text size="xs" c="dimmed">
        {m.status === 'skipped' && m.skip_reason ? t(`skip.${m.skip_reason}`) : t('noAnswer')}
      </Text>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <OutcomeBadge outcome={m.last_outcome} />
      {m.last_answer && (
        <Text size="xs" ff="monospace" c="dimmed" title={m.last_answer} style={{ overflowWrap: 'anywhere' }} data-testid="pm-last-answer">
          {m.last_http_status ? `${m.last_http_status} · ` : ''}
          {truncateAnswer(m.last_answer, 60)}
        </Text>
      )}
    </Stack>
  );
}

function MessageCard({ m, onOpen }: { m: ParentMessage; onOpen: () => void }) {
  const { t } = useTranslation('parent-messages');
  const fmt = useFormatDate();
  return (
    <UnstyledButton onClick={onOpen} p="sm" style={{ display: 'block', width: '100%', minHeight: 44 }} data-testid="pm-row" data-id={m.id} data-status={m.status}>
      <Group wrap="nowrap" gap="sm" align="flex-start">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fw={600} size="sm" truncate>
              {m.student_name}
            </Text>
            <StatusBadge status={m.status} />
          </Group>
          <Text size="xs" c="dimmed">
            {m.class_name || t('noClass')} · {t(`event.${m.event}`)}
          </Text>
          <Group gap="xs" justify="space-between" wrap="wrap">
            <PhoneText m={m} size="xs" />
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {fmt(m.created_at, 'dateTime')} · {t('attemptsN', { n: m.attempts })}
            </Text>
          </Group>
          {m.last_answer && (
            <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {truncateAnswer(m.last_answer, 70)}
            </Text>
          )}
        </Stack>
        <IconChevronRight size={18} color="var(--mantine-color-dimmed)" aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

/** /pesan-orang-tua: the delivery log of messages to parents. */
export default function ParentMessagesPage() {
  const { t } = useTranslation('parent-messages');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const manage = can('parent_messages.manage');
  const { filters, update, reset } = useUrlFilters(logFilters);
  const [open, setOpen] = useState<number | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);

  const classes = useClasses();
  const list = useParentMessages(filters, PER_PAGE);
  const retryFailed = useRetryFailed();
  const rows = list.data?.data ?? [];
  const counts = list.data?.counts ?? {};
  const failed = counts.failed ?? 0;
  const classOptions = (classes.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }));
  const filtered = isFiltered(filters);

  const runRetryFailed = () =>
    retryFailed.mutate(undefined, {
      onSuccess: (r) => {
        setConfirmAll(false);
        notifySuccess(t('retryFailedDone', { n: num(r.count) }));
      },
      onError: (err) => {
        setConfirmAll(false);
        notifyError(err, tc);
      },
    });

  const chip = (s: ParentMessageStatus | '', n: number) => (
    <Chip key={s || 'all'} value={s || 'all'} variant="outline" size="sm" wrapperProps={{ 'data-testid': `pm-chip-${s || 'all'}` }}>
      {s ? t(`status.${s}`) : t('status.all')} <span data-testid={`pm-count-${s || 'all'}`}>{num(n)}</span>
    </Chip>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            {can('settings.view') && (
              <Button component={Link} to="/settings/messaging" variant="default" leftSection={<IconSettings size={18} aria-hidden />}>
                {t('settingsLink')}
              </Button>
            )}
            {manage && failed > 0 && (
              <Button color="red" variant="light" leftSection={<IconRefresh size={18} aria-hidden />} onClick={() => setConfirmAll(true)} data-testid="pm-retry-failed">
                {t('retryFailed')}
              </Button>
            )}
          </>
        }
      />
      {list.data?.paused_until && (
        <Alert color="yellow" icon={<IconPlayerPause />} mb="md" data-testid="pm-paused">
          <Text size="sm" fw={600}>
            {t('paused', { at: fmt(list.data.paused_until, 'dateTime') })}
          </Text>
          {list.data.pause_reason && (
            <Text size="sm">
              {t('pausedReason', {
                // The worker may keep the outcome's code as the reason: said in words then.
                reason: (OUTCOMES as readonly string[]).includes(list.data.pause_reason) ? t(`outcome.${list.data.pause_reason}`) : list.data.pause_reason,
              })}
            </Text>
          )}
        </Alert>
      )}
      <Card withBorder padding={0}>
        <Stack p="md" gap="sm">
          <ScrollArea type="auto" scrollbars="x" offsetScrollbars>
            <Chip.Group multiple={false} value={filters.status || 'all'} onChange={(v) => update({ status: v === 'all' ? '' : (v as ParentMessageStatus) })}>
              <Group gap="xs" wrap="nowrap" role="group" aria-label={t('filters.status')} data-testid="pm-status-chips">
                {chip('', totalCount(counts))}
                {STATUSES.map((s) => chip(s, counts[s] ?? 0))}
              </Group>
            </Chip.Group>
          </ScrollArea>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('filters.event')}
              placeholder={t('filters.all')}
              data={EVENTS.map((e) => ({ value: e, label: t(`event.${e}`) }))}
              value={filters.event || null}
              onChange={(v) => update({ event: (v ?? '') as ParentEvent | '' })}
              clearable
              clearButtonProps={{ 'aria-label': t('filters.clear') }}
              style={{ flex: '1 1 180px' }}
              data-testid="pm-event-filter"
            />
            {classOptions.length > 1 && (
              <Select
                label={t('filters.class')}
                placeholder={t('filters.all')}
                data={classOptions}
                value={filters.classId ? String(filters.classId) : null}
                onChange={(v) => update({ classId: v ? Number(v) : null })}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': t('filters.clear') }}
                style={{ flex: '1 1 140px' }}
                data-testid="pm-class-filter"
              />
            )}
            <StudentSearch
              label={t('filters.student')}
              value={filters.studentId}
              onChange={(s) => update({ studentId: s?.id ?? null })}
              style={{ flex: '1 1 240px', minWidth: 0 }}
            />
            <DateRangeFilter
              label={t('filters.period')}
              placeholder={t('filters.allDates')}
              clearLabel={t('filters.clear')}
              from={filters.from}
              to={filters.to}
              onChange={(from, to) => update({ from, to })}
              testId="pm-period-filter"
            />
          </Group>
          {hasQueued(list.data) && (
            <Text size="xs" c="dimmed" data-testid="pm-refreshing">
              {t('refreshing')}
            </Text>
          )}
        </Stack>

        <DataList
          query={list}
          rows={rows}
          rowKey={(m) => m.id}
          label={t('title')}
          testId="pm-list"
          minWidth={960}
          striped
          highlightOnHover
          head={
            <>
              <Table.Th>{t('fields.time')}</Table.Th>
              <Table.Th>{t('fields.student')}</Table.Th>
              <Table.Th>{t('fields.event')}</Table.Th>
              <Table.Th>{t('fields.phone')}</Table.Th>
              <Table.Th>{t('fields.status')}</Table.Th>
              <Table.Th ta="right">{t('fields.attempts')}</Table.Th>
              <Table.Th>{t('fields.lastAnswer')}</Table.Th>
            </>
          }
          row={(m) => (
            <Table.Tr style={{ cursor: 'pointer' }} onClick={() => setOpen(m.id)} data-testid="pm-row" data-id={m.id} data-status={m.status}>
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                <div>{fmt(m.created_at, 'shortDate')}</div>
                <Text size="xs" c="dimmed">
                  {fmt(m.created_at, 'time')}
                </Text>
              </Table.Td>
              <Table.Td miw={170}>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  fw={500}
                  ta="left"
                  onClick={(e: React.MouseEvent) => {
                    e.stopPropagation();
                    setOpen(m.id);
                  }}
                  aria-label={t('open', { name: m.student_name })}
                  data-testid="pm-open"
                >
                  {m.student_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {m.class_name || t('noClass')}
                </Text>
              </Table.Td>
              <Table.Td fz="sm">{t(`event.${m.event}`)}</Table.Td>
              <Table.Td>
                <PhoneText m={m} />
              </Table.Td>
              <Table.Td miw={150}>
                <StatusBadge status={m.status} />
              </Table.Td>
              <Table.Td ta="right" fz="sm" data-testid="pm-attempts-count">
                {num(m.attempts)}
              </Table.Td>
              <Table.Td miw={220} maw={300}>
                <LastAnswer m={m} />
              </Table.Td>
            </Table.Tr>
          )}
          card={(m) => <MessageCard m={m} onOpen={() => setOpen(m.id)} />}
          empty={{
            message: filtered ? t('emptyFiltered') : filters.status ? t('emptyStatus', { status: t(`status.${filters.status}`) }) : t('empty'),
            onClearFilters: filtered || filters.status ? () => reset() : undefined,
            testId: 'pm-empty',
          }}
          meta={list.data?.meta}
          onPage={(page) => update({ page })}
        />
      </Card>

      <MessageDrawer id={open} onClose={() => setOpen(null)} />

      <Modal opened={confirmAll} onClose={() => setConfirmAll(false)} title={t('retryFailedTitle')} centered closeButtonProps={{ 'aria-label': tc('actions.cancel') }}>
        <Stack gap="md">
          <Text size="sm">{t('retryFailedBody', { n: num(failed) })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmAll(false)}>
              {t('keep')}
            </Button>
            <Button onClick={runRetryFailed} loading={retryFailed.isPending} data-testid="pm-retry-failed-confirm">
              {t('retryFailed')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
