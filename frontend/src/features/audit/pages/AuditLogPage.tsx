import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '@mantine/hooks';
import { ActionIcon, Box, Button, Card, Collapse, Group, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFilter } from '@tabler/icons-react';
import { PageHeader } from '@/components/PageHeader';
import type { AuditEntry } from '../api';
import { ENTITIES, actionLabel, entityLabel, formatAuditTime } from '../actions';
import { actorLabel, targetName } from '../describe';
import { useSession } from '@/auth/session';
import { DataList } from '@/components/DataList';
import { AuditDetails } from '../components/AuditDetails';
import { useAuditLog } from '../hooks';
import '@/app/pageStyles';

const PER_PAGE = 25;
const ALL = 'all';

function useLabels() {
  const { t, i18n } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const { me } = useSession();
  return {
    time: (e: AuditEntry) => formatAuditTime(e.at, lang),
    actor: (e: AuditEntry) => actorLabel(e, t, me?.user),
    action: (e: AuditEntry) => actionLabel(e.action, t),
    entity: (e: AuditEntry) => entityLabel(e.entity, t),
    /** The record: a role by its name ("Tamu"), anything else by its number. */
    entityId: (e: AuditEntry) =>
      e.entity === 'role' && e.entity_id ? tc(`role.${e.entity_id}`, { defaultValue: e.entity_id }) : e.entity_id ? `#${e.entity_id}` : '',
    /** What the action was done to, by name where the details say ("Alpha", "guru.staf"). */
    target: (e: AuditEntry) => targetName(e),
  };
}

/** The action in words, with what it was done to beneath ("Membuat pengguna" / "guru.staf"). */
function ActionCell({ entry }: { entry: AuditEntry }) {
  const l = useLabels();
  const target = l.target(entry);
  return (
    <>
      <Text size="sm" fw={500}>
        {l.action(entry)}
      </Text>
      {target && (
        <Text size="xs" c="dimmed" data-testid="audit-target">
          {target}
        </Text>
      )}
    </>
  );
}

function EntityCell({ entry }: { entry: AuditEntry }) {
  const l = useLabels();
  return (
    <>
      <Text size="sm">{l.entity(entry)}</Text>
      {entry.entity_id && (
        <Text size="xs" c="dimmed">
          {l.entityId(entry)}
        </Text>
      )}
    </>
  );
}

export default function AuditLogPage() {
  const { t } = useTranslation('audit');
  const l = useLabels();
  const narrow = useMediaQuery('(max-width: 36em)');

  const [entity, setEntity] = useState(ALL);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const log = useAuditLog({ entity: entity === ALL ? '' : entity, page, per_page: PER_PAGE });

  const meta = log.data?.meta;
  const rows = log.data?.data ?? [];

  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const toggleLabel = (e: AuditEntry) => (open.has(e.id) ? t('hideDetails') : t('showDetails'));

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Card withBorder padding={0}>
        <Group p="md" gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('filters.entity')}
            leftSection={<IconFilter size={16} />}
            data={[
              { value: ALL, label: t('filters.allEntities') },
              ...ENTITIES.map((e) => ({ value: e, label: t(`entities.${e}`) })),
            ]}
            value={entity}
            onChange={(v) => {
              setEntity(v ?? ALL);
              setPage(1);
              setOpen(new Set());
            }}
            allowDeselect={false}
            data-testid="audit-entity-filter"
            style={{ flex: '0 1 260px' }}
          />
        </Group>

        <DataList
          query={log}
          rows={rows}
          rowKey={(e) => e.id}
          narrow={!!narrow}
          label={t('title')}
          testId="audit-table"
          minWidth={820}
          highlightOnHover
          head={
            <>
              <Table.Th w={44}>
                <VisuallyHidden>{t('fields.details')}</VisuallyHidden>
              </Table.Th>
              <Table.Th>{t('fields.at')}</Table.Th>
              <Table.Th>{t('fields.actor')}</Table.Th>
              <Table.Th>{t('fields.action')}</Table.Th>
              <Table.Th>{t('fields.entity')}</Table.Th>
              <Table.Th>{t('fields.address')}</Table.Th>
            </>
          }
          row={(e) => (
            <>
              <Table.Tr data-testid={`audit-row-${e.id}`} data-action={e.action}>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={`${toggleLabel(e)}: ${l.action(e)}`}
                    aria-expanded={open.has(e.id)}
                    aria-controls={`audit-details-${e.id}`}
                    onClick={() => toggle(e.id)}
                  >
                    {open.has(e.id) ? <IconChevronDown size={18} /> : <IconChevronRight size={18} />}
                  </ActionIcon>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {l.time(e)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={e.actor_id === null ? 'dimmed' : undefined}>
                    {l.actor(e)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ActionCell entry={e} />
                </Table.Td>
                <Table.Td>
                  <EntityCell entry={e} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {e.address || '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
              {open.has(e.id) && (
                <Table.Tr bg="var(--mantine-color-gray-0)">
                  <Table.Td />
                  <Table.Td colSpan={5} id={`audit-details-${e.id}`} data-testid={`audit-details-${e.id}`} aria-label={t('detailsFor', { id: e.id })}>
                    <AuditDetails entry={e} />
                  </Table.Td>
                </Table.Tr>
              )}
            </>
          )}
          card={(e) => (
            <Stack gap={4} px="md" py="sm" data-testid={`audit-row-${e.id}`} data-action={e.action} style={{ minWidth: 0 }}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {l.time(e)}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace" truncate>
                  {e.address || '—'}
                </Text>
              </Group>
              <Box>
                <ActionCell entry={e} />
              </Box>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Text span size="sm" fw={500}>
                  {l.actor(e)}
                </Text>
                {' · '}
                {l.entity(e)}
                {e.entity_id && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    {l.entityId(e)}
                  </Text>
                )}
              </Text>
              <Button
                variant="subtle"
                size="compact-sm"
                px={0}
                style={{ alignSelf: 'flex-start' }}
                leftSection={open.has(e.id) ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                aria-expanded={open.has(e.id)}
                aria-controls={`audit-details-${e.id}`}
                onClick={() => toggle(e.id)}
              >
                {toggleLabel(e)}
              </Button>
              <Collapse in={open.has(e.id)}>
                <Box id={`audit-details-${e.id}`} data-testid={`audit-details-${e.id}`} pt={4}>
                  {open.has(e.id) && <AuditDetails entry={e} />}
                </Box>
              </Collapse>
            </Stack>
          )}
          empty={{
            message: entity !== ALL ? t('emptyFiltered') : t('empty'),
            onClearFilters:
              entity !== ALL
                ? () => {
                    setEntity(ALL);
                    setPage(1);
                  }
                : undefined,
            testId: 'audit-empty',
          }}
          meta={meta}
          onPage={(p) => {
            setPage(p);
            setOpen(new Set());
          }}
        />
      </Card>
    </>
  );
}
