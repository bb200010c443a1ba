import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Card, Group, Select, Stack, Switch, Table, Text } from '@mantine/core';
import { IconPlus, IconSettings } from '@tabler/icons-react';
import { DataList, usePhone } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { useSession } from '@/auth/session';
import { field, flag, id, useUrlFilters, type UrlField } from '@/lib/urlFilters';
import { useFormatDate } from '@/lib/useFormatDate';
import { CASE_STAGES, type CaseListFilters, type CaseStageName, type CaseSummary } from '../api';
import { StageBadge } from '../components/Badges';
import { CaseSettingsModal } from '../components/CaseSettingsModal';
import { NewCaseForm } from '../components/NewCaseForm';
import { useCaseCategories, useCases } from '../hooks';
import { paths } from '../paths';
import '@/app/pageStyles';

/** The list's filters in its URL (?stage=&category_id=&overdue=true&page=). */
const caseFilters = {
  stage: field<CaseStageName | null>('stage', null, (raw) => CASE_STAGES.find((s) => s === raw), (v) => v ?? ''),
  categoryId: id('category_id'),
  overdue: flag('overdue'),
} satisfies { [K in Exclude<keyof CaseListFilters, 'page'>]: UrlField<CaseListFilters[K]> };

/** The cases the user may see: a counselor's work list, a homeroom teacher's students' cases. */
export default function CasesPage() {
  const { t } = useTranslation('cases');
  const { can } = useSession();
  const phone = usePhone();
  const { filters: f, update: set } = useUrlFilters(caseFilters);
  const [creating, setCreating] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const list = useCases(f);
  const categories = useCaseCategories();
  const rows = list.data?.data ?? [];
  const filtered = f.stage !== null || f.categoryId !== null || f.overdue;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          can('cases.manage') && (
            <>
              <Button variant="default" leftSection={<IconSettings size={16} aria-hidden />} onClick={() => setSettingsOpen(true)} data-testid="case-settings">
                {t('settings.title')}
              </Button>
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)} data-testid="case-new">
                {t('new')}
              </Button>
            </>
          )
        }
      />
      <Card withBorder padding={0} data-testid="case-list">
        <Group gap="sm" align="flex-end" wrap="wrap" p="md">
          <Select
            label={t('filters.stage')}
            placeholder={t('filters.allStages')}
            data={CASE_STAGES.map((s) => ({ value: s, label: t(`stage.${s}`) }))}
            value={f.stage}
            onChange={(v) => set({ stage: (v as CaseStageName | null) ?? null })}
            clearable
            w={{ base: '100%', xs: 200 }}
            data-testid="case-filter-stage"
          />
          <Select
            label={t('filters.category')}
            placeholder={t('filters.allCategories')}
            data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={f.categoryId ? String(f.categoryId) : null}
            onChange={(v) => set({ categoryId: v ? Number(v) : null })}
            clearable
            w={{ base: '100%', xs: 240 }}
            data-testid="case-filter-category"
          />
          <Switch label={t('filters.overdue')} checked={f.overdue} onChange={(e) => set({ overdue: e.currentTarget.checked })} mb={8} data-testid="case-filter-overdue" />
        </Group>
        <DataList
          query={list}
          rows={rows}
          rowKey={(c) => c.id}
          narrow={phone}
          label={t('title')}
          minWidth={760}
          highlightOnHover
          head={
            <>
              <Table.Th>{t('fields.case')}</Table.Th>
              <Table.Th>{t('fields.category')}</Table.Th>
              <Table.Th>{t('fields.stage')}</Table.Th>
              <Table.Th>{t('fields.due')}</Table.Th>
              <Table.Th>{t('fields.people')}</Table.Th>
            </>
          }
          row={(c) => (
            <Table.Tr data-testid="case-row">
              <Table.Td>
                <CaseLink c={c} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{c.category_name}</Text>
              </Table.Td>
              <Table.Td>
                <StageBadge stage={c.stage} />
              </Table.Td>
              <Table.Td>
                <Due c={c} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{c.participants}</Text>
              </Table.Td>
            </Table.Tr>
          )}
          card={(c) => (
            <Stack gap={4} px="md" py="sm" data-testid="case-row">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <CaseLink c={c} />
                <StageBadge stage={c.stage} />
              </Group>
              <Text size="xs" c="dimmed">
                {c.category_name}
              </Text>
              <Due c={c} />
            </Stack>
          )}
          empty={{
            message: filtered ? t('emptyFiltered') : t('empty'),
            onClearFilters: filtered ? () => set({ stage: null, categoryId: null, overdue: false }) : undefined,
            testId: 'case-empty',
          }}
          meta={list.data?.meta}
          onPage={(p) => set({ page: p })}
        />
      </Card>
      <NewCaseForm opened={creating} onClose={() => setCreating(false)} />
      <CaseSettingsModal opened={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </>
  );
}

/** The case's title; a homeroom teacher, who sees no title, reads the category and date. */
function CaseLink({ c }: { c: CaseSummary }) {
  const { t } = useTranslation('cases');
  const fmt = useFormatDate();
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Anchor component={Link} to={paths.of(c.id)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="case-link">
        {c.title || t('untitled', { category: c.category_name })}
      </Anchor>
      <Text size="xs" c="dimmed">
        {fmt(c.occurred_at, 'dateTime')}
      </Text>
    </Stack>
  );
}

function Due({ c }: { c: CaseSummary }) {
  const { t } = useTranslation('cases');
  const fmt = useFormatDate();
  if (!c.stage_due_on) return null;
  return (
    <Group gap={6} wrap="wrap">
      <Text size="sm">{t('dueBy', { date: fmt(c.stage_due_on, 'shortDate'), owner: c.stage_owner_name || '—' })}</Text>
      {c.overdue && (
        <Badge color="red" size="sm" variant="filled" data-testid="case-overdue">
          {t('overdue')}
        </Badge>
      )}
    </Group>
  );
}
