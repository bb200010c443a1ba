import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { Anchor, Button, Card, Collapse, Group, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconFileSpreadsheet, IconFilter, IconPlus, IconSchool, IconSearch } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { DataList, usePhone } from '@/components/DataList';
import { DateRangeFilter } from '@/components/DateRangeFilter';
import { PageHeader } from '@/components/PageHeader';
import { notifyError } from '@/components/serverErrors';
import { useClasses, useDepartments } from '@/features/students/hooks';
import { useScreenSource } from '@/features/violation-source/hooks';
import { SourceControl } from '@/features/violation-source/SourceControl';
import { gradeLabel, gradesOf } from '@/features/students/types';
import { yearLabel, yearStartOf } from '@/features/warning-letters/academicYear';
import { useAcademicYear } from '@/features/warning-letters/hooks';
import { useFormatNumber } from '@/lib/numbers';
import { useUrlFilters } from '@/lib/urlFilters';
import { useFormatDate } from '@/lib/useFormatDate';
import { saveFile } from '@/platform';
import { CategoryBadge, HandlingStatusBadge, PhotoCount, PointsBadge, VerifiedBadge } from '../components/Badges';
import { BulkResolveAttendance } from '../components/BulkResolveAttendance';
import { PageCheckbox, RowCheckbox, SelectionBar, useListSelection } from '../components/Selection';
import { activeFilterCount, exportFileName, exportUrl, isFiltered, JOURNAL, SORTS, violationFilters, type Sort } from '../api';
import { useParticipantUsers, useTypeList, useViolations } from '../hooks';
import { paths } from '../paths';
import { HANDLING_STATUSES, type HandlingStatus, type Violation } from '../types';
import '@/app/pageStyles';

const PER_PAGE = 25;

function Recorder({ v }: { v: Violation }) {
  const { t } = useTranslation('violations');
  return <>{v.recorded_by === null ? t('journal') : v.recorded_by_name || '—'}</>;
}

/** "TA 2025/2026" under a violation of an earlier academic year: open handlings carry over the turn of the year, its points do not. */
function PastYear({ v }: { v: Violation }) {
  const { t } = useTranslation('violations');
  const year = useAcademicYear();
  if (!year.data) return null;
  const start = yearStartOf(v.occurred_on, year.data.start_month_day);
  if (start >= year.data.start) return null;
  return (
    <Text size="xs" c="dimmed" data-testid={`violation-past-year-${v.id}`}>
      {t('yearShort', { year: yearLabel(start) })}
    </Text>
  );
}

function ViolationCard({ v }: { v: Violation }) {
  const { t } = useTranslation('violations');
  const fmt = useFormatDate();
  return (
    <UnstyledButton component={Link} to={paths.detail(v.id)} data-testid={`violation-row-${v.id}`} p="sm" style={{ display: 'block', minHeight: 44 }}>
      <Group wrap="nowrap" gap="sm" align="flex-start">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fw={600} size="sm" truncate>
              {v.student_name}
            </Text>
            <Stack gap={0} align="flex-end">
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {fmt(v.occurred_at, 'dateTime')}
              </Text>
              <PastYear v={v} />
            </Stack>
          </Group>
          <Text size="xs" c="dimmed">
            {v.class_name || t('noClass')} · {t('fields.nis')} {v.student_nis || '—'}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {v.type_name}
          </Text>
          <Group gap={6} wrap="wrap">
            <CategoryBadge name={v.category_name} colour={v.category_colour} />
            <PointsBadge points={v.points} />
            <HandlingStatusBadge status={v.handling_status} />
            <VerifiedBadge verified={!!v.verified_at} />
            <PhotoCount count={v.photo_count} />
          </Group>
        </Stack>
        <IconChevronRight size={18} color="var(--mantine-color-dimmed)" aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

export default function ViolationsPage() {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { me, can } = useSession();
  const homeroom = me?.user.role === 'wali_kelas';
  const narrow = usePhone();

  const { filters: urlFilters, update, reset } = useUrlFilters(violationFilters);
  // The source: the URL's (a dashboard figure's link), else the user's own; the list waits for it.
  const { source, remember } = useScreenSource(urlFilters.source);
  const filters = useMemo(() => ({ ...urlFilters, source }), [urlFilters, source]);

  const [search, setSearch] = useState(filters.q);
  const [q] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (q !== filters.q) update({ q });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs only when the values listed change (the others are read at that moment)
  }, [q]);

  const departments = useDepartments();
  const classes = useClasses();
  const types = useTypeList('', can('violation_types.view'));
  const users = useParticipantUsers('', can('users.view'));
  const list = useViolations(filters, PER_PAGE, source !== null);
  const rows = list.data?.data ?? [];
  const meta = list.data?.meta;
  // Rows chosen for one shared handling record ("Tangani"), and the class whose attendance can be resolved at once.
  const selecting = can('handlings.create');
  const selection = useListSelection(rows);

  const classOptions = (classes.data?.data ?? [])
    .filter((c) => (!filters.departmentId || c.department_id === filters.departmentId) && (!filters.grade || c.grade === filters.grade))
    .map((c) => ({ value: String(c.id), label: c.name }));
  const ownClass = homeroom ? classes.data?.data[0] : undefined;
  const bulkClass = homeroom ? ownClass : classes.data?.data.find((c) => c.id === filters.classId);
  const categories = types.data?.categories ?? [];
  const typeOptions = (types.data?.data ?? [])
    .filter((ty) => !filters.categoryId || ty.category_id === filters.categoryId)
    .map((ty) => ({ value: String(ty.id), label: ty.name }));
  const recorderOptions = [
    ...(me ? [{ value: String(me.user.id), label: t('filters.recordedByMe') }] : []),
    { value: JOURNAL, label: t('journal') },
    ...(users.data?.data ?? []).filter((u) => u.id !== me?.user.id).map((u) => ({ value: String(u.id), label: u.name })),
  ];
  const [filtersOpen, { toggle: toggleFilters }] = useDisclosure(false);
  const more = activeFilterCount(filters);
  const filtered = isFiltered(filters);
  const clearFilters = () => {
    setSearch('');
    reset();
  };

  const [exporting, setExporting] = useState(false);
  const runExport = async () => {
    setExporting(true);
    try {
      await saveFile(exportUrl(filters), exportFileName(filters));
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setExporting(false);
    }
  };

  const filterFields = (
    <>
      {!homeroom && (
        <>
          <Select
            label={t('filters.department')}
            placeholder={t('filters.all')}
            data={(departments.data?.data ?? []).map((d) => ({ value: String(d.id), label: d.code ? `${d.code} — ${d.name}` : d.name }))}
            value={filters.departmentId ? String(filters.departmentId) : null}
            onChange={(v) => update({ departmentId: v ? Number(v) : null, classId: null })}
            clearable
            clearButtonProps={{ 'aria-label': t('filters.clear') }}
            style={{ flex: '1 1 170px' }}
          />
          <Select
            label={t('filters.grade')}
            placeholder={t('filters.all')}
            data={gradesOf(classes.data?.data ?? []).map((g) => ({ value: String(g), label: gradeLabel(g) }))}
            value={filters.grade ? String(filters.grade) : null}
            onChange={(v) => update({ grade: v ? Number(v) : null, classId: null })}
            clearable
            clearButtonProps={{ 'aria-label': t('filters.clear') }}
            style={{ flex: '0 1 110px' }}
          />
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
            data-testid="class-filter"
          />
        </>
      )}
      {categories.length > 0 && (
        <Select
          label={t('filters.category')}
          placeholder={t('filters.all')}
          data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
          value={filters.categoryId ? String(filters.categoryId) : null}
          onChange={(v) => update({ categoryId: v ? Number(v) : null, typeId: null })}
          clearable
          clearButtonProps={{ 'aria-label': t('filters.clear') }}
          style={{ flex: '1 1 140px' }}
        />
      )}
      {typeOptions.length > 0 && (
        <Select
          label={t('filters.type')}
          placeholder={t('filters.all')}
          data={typeOptions}
          value={filters.typeId ? String(filters.typeId) : null}
          onChange={(v) => update({ typeId: v ? Number(v) : null })}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': t('filters.clear') }}
          style={{ flex: '1 1 200px' }}
        />
      )}
      <Select
        label={t('filters.status')}
        placeholder={t('filters.all')}
        data={HANDLING_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        value={filters.status || null}
        onChange={(v) => update({ status: (v ?? '') as HandlingStatus | '' })}
        clearable
        clearButtonProps={{ 'aria-label': t('filters.clear') }}
        style={{ flex: '1 1 190px' }}
        data-testid="status-filter"
      />
      <Select
        label={t('filters.verification')}
        placeholder={t('filters.all')}
        data={[
          { value: 'true', label: t('verification.verified') },
          { value: 'false', label: t('verification.unverified') },
        ]}
        value={filters.verified || null}
        onChange={(v) => update({ verified: v === 'true' || v === 'false' ? v : '' })}
        clearable
        clearButtonProps={{ 'aria-label': t('filters.clear') }}
        style={{ flex: '1 1 160px' }}
      />
      <Select
        label={t('filters.recorder')}
        placeholder={t('filters.all')}
        data={recorderOptions}
        value={filters.recorder || null}
        onChange={(v) => update({ recorder: v ?? '' })}
        searchable
        clearable
        clearButtonProps={{ 'aria-label': t('filters.clear') }}
        style={{ flex: '1 1 170px' }}
        data-testid="recorder-filter"
      />
      <Select
        label={t('filters.sort')}
        data={SORTS.map((s) => ({ value: s, label: t(`sort.${s}`) }))}
        value={filters.sort}
        onChange={(v) => update({ sort: (v ?? '-occurred_at') as Sort })}
        allowDeselect={false}
        style={{ flex: '1 1 170px' }}
      />
    </>
  );

  const period = (
    <DateRangeFilter
      label={t('filters.period')}
      placeholder={t('filters.allDates')}
      clearLabel={t('filters.clear')}
      from={filters.period.from}
      to={filters.period.to}
      onChange={(from, to) => update({ period: { from, to } })}
      testId="period-filter"
    />
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            {bulkClass && <BulkResolveAttendance classId={bulkClass.id} className={bulkClass.name} />}
            {can('violations.export') && (
              <Button variant="default" leftSection={<IconFileSpreadsheet size={18} aria-hidden />} onClick={runExport} loading={exporting} data-testid="export">
                {t('export')}
              </Button>
            )}
            {can('violations.record') && (
              <Button component={Link} to={paths.record} leftSection={<IconPlus size={18} aria-hidden />} data-testid="record-violation">
                {t('record')}
              </Button>
            )}
          </>
        }
      />
      {homeroom && classes.isSuccess && (
        <Group gap="xs" mb="md" data-testid="own-class">
          <IconSchool size={18} aria-hidden />
          <Text size="sm">{ownClass ? t('ownClass', { name: ownClass.name }) : t('noOwnClass')}</Text>
        </Group>
      )}
      <Card withBorder padding={0}>
        <Stack p="md" gap="sm">
          <SourceControl
            value={source}
            onChange={(s) => {
              remember(s);
              update({ source: s });
            }}
          />
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              label={t('filters.search')}
              placeholder={t('filters.searchPlaceholder')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              style={{ flex: '1 1 220px', minWidth: 0 }}
              data-testid="violation-search"
            />
            {period}
            {narrow && (
              <Button
                variant={more > 0 ? 'light' : 'default'}
                leftSection={<IconFilter size={16} aria-hidden />}
                onClick={toggleFilters}
                aria-expanded={filtersOpen}
                fullWidth
                data-testid="toggle-filters"
              >
                {more > 0 ? t('filters.moreActive', { n: more }) : t('filters.more')}
              </Button>
            )}
          </Group>
          {narrow ? (
            <Collapse in={filtersOpen}>
              <Group gap="sm" align="flex-end" wrap="wrap">
                {filterFields}
              </Group>
            </Collapse>
          ) : (
            <Group gap="sm" align="flex-end" wrap="wrap">
              {filterFields}
            </Group>
          )}
        </Stack>

        <DataList
          query={list}
          rows={rows}
          rowKey={(v) => v.id}
          narrow={narrow}
          label={t('title')}
          testId="violations-table"
          minWidth={900}
          striped
          highlightOnHover
          head={
            <>
              {selecting && (
                <Table.Th w={44}>
                  <PageCheckbox selection={selection} />
                </Table.Th>
              )}
              <Table.Th>{t('fields.when')}</Table.Th>
              <Table.Th>{t('fields.student')}</Table.Th>
              <Table.Th>{t('fields.class')}</Table.Th>
              <Table.Th>{t('fields.type')}</Table.Th>
              <Table.Th ta="right">{t('fields.points')}</Table.Th>
              <Table.Th>{t('fields.status')}</Table.Th>
              <Table.Th>{t('fields.recordedBy')}</Table.Th>
            </>
          }
          row={(v) => (
            <Table.Tr data-testid={`violation-row-${v.id}`} style={{ cursor: 'pointer' }} onClick={() => navigate(paths.detail(v.id))}>
              {selecting && (
                <Table.Td p={0} onClick={(e) => e.stopPropagation()}>
                  <RowCheckbox v={v} selection={selection} />
                </Table.Td>
              )}
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                <div>{fmt(v.occurred_at, 'shortDate')}</div>
                <Text size="xs" c="dimmed">
                  {fmt(v.occurred_at, 'time')}
                </Text>
                <PastYear v={v} />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.detail(v.id)} fw={500} size="sm" onClick={(e) => e.stopPropagation()}>
                  {v.student_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {t('fields.nis')} {v.student_nis || '—'}
                </Text>
              </Table.Td>
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {v.class_name || t('noClass')}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{v.type_name}</Text>
                <Group gap={4} mt={2}>
                  <CategoryBadge name={v.category_name} colour={v.category_colour} />
                  <PhotoCount count={v.photo_count} />
                </Group>
              </Table.Td>
              <Table.Td ta="right" fw={600} fz="sm" data-testid="points">
                {num(v.points)}
              </Table.Td>
              <Table.Td miw={170}>
                <Stack gap={4} align="flex-start">
                  <HandlingStatusBadge status={v.handling_status} />
                  <VerifiedBadge verified={!!v.verified_at} />
                </Stack>
              </Table.Td>
              <Table.Td fz="sm">
                <Recorder v={v} />
              </Table.Td>
            </Table.Tr>
          )}
          card={(v) => (
            <Group gap={0} wrap="nowrap">
              {selecting && <RowCheckbox v={v} selection={selection} />}
              <div style={{ flex: 1, minWidth: 0 }}>
                <ViolationCard v={v} />
              </div>
            </Group>
          )}
          empty={{
            message: filtered ? t('emptyFiltered') : t('emptyMonth'),
            onClearFilters: filtered ? clearFilters : undefined,
            testId: 'violations-empty',
            children: !filtered && (
              <Button variant="subtle" size="sm" onClick={() => update({ period: { from: '', to: '' } })} data-testid="all-dates">
                {t('filters.showAllDates')}
              </Button>
            ),
          }}
          meta={meta}
          onPage={(page) => update({ page })}
          summaryTestId="violations-summary"
        />
      </Card>
      {selecting && <SelectionBar selection={selection} />}
    </>
  );
}
