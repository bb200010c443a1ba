import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Anchor, Badge, Card, Center, Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSession } from '@/auth/session';
import { EmptyState } from '@/components/EmptyState';
import { ListPager } from '@/components/ListPager';
import { PageHeader } from '@/components/PageHeader';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import type { PointAuditEntry } from '../api';
import { StudentPicker } from '../components/StudentPicker';
import { usePointAudit } from '../hooks';
import { pointActionLabel, pointsDelta } from '../pointActions';
import { violationPath } from '../violationPaths';
import '@/app/pageStyles';

const PER_PAGE = 25;

function positiveInt(v: string | null): number | null {
  return v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null;
}

/** Who changed a student's points, how (in school words), from what to what, and when. */
export default function PointHistoryPage() {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const phone = useMediaQuery('(max-width: 48em)');
  const [sp, setSp] = useSearchParams();
  const studentId = positiveInt(sp.get('student_id'));
  const page = positiveInt(sp.get('page')) ?? 1;
  const log = usePointAudit(studentId, page, PER_PAGE);
  const rows = log.data?.data ?? [];

  const go = (next: { studentId?: number | null; page?: number }) => {
    const q = new URLSearchParams();
    const s = next.studentId === undefined ? studentId : next.studentId;
    if (s) q.set('student_id', String(s));
    if ((next.page ?? 1) > 1) q.set('page', String(next.page));
    setSp(q, { replace: true });
  };

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
          <StudentPicker label={t('filters.student')} value={studentId} onChange={(s) => go({ studentId: s })} testId="point-audit-student" />
        </SimpleGrid>
        {phone ? (
          <Stack gap={0} data-testid="point-audit-table">
            {rows.map((e) => (
              <Stack key={e.id} gap={4} px="md" py="sm" data-testid={`point-row-${e.id}`} data-action={e.action} style={{ borderTop: '1px solid var(--mantine-color-gray-2)', minWidth: 0 }}>
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
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={820}>
            <Table verticalSpacing="sm" highlightOnHover aria-label={t('audit.title')} data-testid="point-audit-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.at')}</Table.Th>
                  <Table.Th>{t('fields.student')}</Table.Th>
                  <Table.Th>{t('audit.action')}</Table.Th>
                  <Table.Th>{t('audit.change')}</Table.Th>
                  <Table.Th>{t('audit.actor')}</Table.Th>
                  <Table.Th>{t('audit.address')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((e) => (
                  <Table.Tr key={e.id} data-testid={`point-row-${e.id}`} data-action={e.action}>
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
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {log.isPending && (
          <Center p="xl">
            <Loader aria-label={tc('loading')} />
          </Center>
        )}
        {!log.isPending && rows.length === 0 && (
          <EmptyState message={studentId ? t('audit.emptyStudent') : t('audit.empty')} onClearFilters={studentId ? () => go({ studentId: null }) : undefined} testId="point-audit-empty" />
        )}
        <ListPager meta={log.data?.meta} onChange={(p) => go({ page: p })} narrow={phone} />
      </Card>
    </>
  );
}
