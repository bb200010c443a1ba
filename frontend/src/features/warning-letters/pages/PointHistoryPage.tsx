import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useSession } from '@/auth/session';
import { DataList, usePhone } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { useFormatNumber } from '@/lib/numbers';
import { id, useUrlFilters } from '@/lib/urlFilters';
import { useFormatDate } from '@/lib/useFormatDate';
import type { PointAuditEntry } from '../api';
import { StudentPicker } from '../components/StudentPicker';
import { usePointAudit } from '../hooks';
import { pointActionLabel, pointsDelta } from '../pointActions';
import { violationPath } from '../violationPaths';
import '@/app/pageStyles';

const PER_PAGE = 25;

/** One student's history, or everyone's (?student_id=&page=). */
const historyFilters = { studentId: id('student_id') };

/** Who changed a student's points, how (in school words), from what to what, and when. */
export default function PointHistoryPage() {
  const { t } = useTranslation('warning-letters');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const phone = usePhone();
  const { filters, update } = useUrlFilters(historyFilters);
  const { studentId, page } = filters;
  const log = usePointAudit(studentId, page, PER_PAGE);
  const rows = log.data?.data ?? [];

  const delta = (e: PointAuditEntry) => {
    const d = pointsDelta(e.points_before, e.points_after);
    const text = d > 0 ? `+${num(d)}` : d < 0 ? `−${num(-d)}` : num(0);
    return (
      <Badge variant="light" color={d > 0 ? 'red' : d < 0 ? 'teal' : 'gray'} data-testid={`point-delta-${e.id}`}>
        {text}
      </Badge>
    );
  };
  const change = (e: PointAuditEntry) => (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid={`point-change-${e.id}`}>
      {num(e.points_before)} → <b>{num(e.points_after)}</b>
    </Text>
  );
  const actor = (e: PointAuditEntry) => e.actor_name || t('audit.system');
  const studentLink = (e: PointAuditEntry) => (
    <Anchor component={Link} to={`/students/${e.student_id}`} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
      {e.student_name}
    </Anchor>
  );
  const action = (e: PointAuditEntry) => (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {pointActionLabel(e.action, t)}
      </Text>
      {e.violation_id && (e.action === 'delete' || e.action === 'auto_delete' || !can('violations.view') ? (
        <Text size="xs" c="dimmed">
          {t('audit.violationNo', { id: e.violation_id })}
        </Text>
      ) : (
        <Anchor component={Link} to={violationPath(e.violation_id)} size="xs">
          {t('audit.violationNo', { id: e.violation_id })}
        </Anchor>
      ))}
    </Stack>
  );

  return (
    <>
      <PageHeader title={t('audit.title')} description={t('audit.description')} />
      <Card withBorder padding={0}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} p="md">
          <StudentPicker label={t('filters.student')} value={studentId} onChange={(s) => update({ studentId: s })} testId="point-audit-student" />
        </SimpleGrid>
        <DataList
          query={log}
          rows={rows}
          rowKey={(e) => e.id}
          narrow={phone}
          label={t('audit.title')}
          testId="point-audit-table"
          minWidth={820}
          highlightOnHover
          head={
            <>
              <Table.Th>{t('audit.at')}</Table.Th>
              <Table.Th>{t('fields.student')}</Table.Th>
              <Table.Th>{t('audit.action')}</Table.Th>
              <Table.Th>{t('audit.change')}</Table.Th>
              <Table.Th>{t('audit.actor')}</Table.Th>
              <Table.Th>{t('audit.address')}</Table.Th>
            </>
          }
          row={(e) => (
            <Table.Tr data-testid={`point-row-${e.id}`} data-action={e.action}>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {fmt(e.at, 'dateTime')}
                </Text>
              </Table.Td>
              <Table.Td>{studentLink(e)}</Table.Td>
              <Table.Td>{action(e)}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {change(e)}
                  {delta(e)}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{actor(e)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.address || '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          card={(e) => (
            <Stack gap={4} px="md" py="sm" data-testid={`point-row-${e.id}`} data-action={e.action}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {fmt(e.at, 'dateTime')}
                </Text>
                {delta(e)}
              </Group>
              {studentLink(e)}
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                {action(e)}
                {change(e)}
              </Group>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('history.by', { name: actor(e) })}
              </Text>
            </Stack>
          )}
          empty={{
            message: studentId ? t('audit.emptyStudent') : t('audit.empty'),
            onClearFilters: studentId ? () => update({ studentId: null }) : undefined,
            testId: 'point-audit-empty',
          }}
          meta={log.data?.meta}
          onPage={(p) => update({ page: p })}
        />
      </Card>
    </>
  );
}
