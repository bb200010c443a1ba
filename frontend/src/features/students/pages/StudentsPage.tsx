import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { Anchor, Badge, Button, Card, Collapse, Group, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconFilter, IconSchool, IconSearch } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { DataList, usePhone } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { useUrlFilters } from '@/lib/urlFilters';
import { SyncButton } from '../components/SyncButton';
import { StudentAvatar } from '../components/StudentAvatar';
import { studentFilters } from '../api';
import { useClasses, useDepartments, useStudents } from '../hooks';
import { gradeLabel, gradesOf, type Grade, type Student } from '../types';
import '@/app/pageStyles';

const PER_PAGE = 25;

function ActiveBadge({ active }: { active: boolean }) {
  const { t: tc } = useTranslation();
  return (
    <Badge variant="dot" color={active ? 'teal' : 'gray'}>
      {active ? tc('status.active') : tc('status.inactive')}
    </Badge>
  );
}

function StudentCard({ s }: { s: Student }) {
  const { t } = useTranslation('students');
  return (
    <UnstyledButton component={Link} to={`/students/${s.id}`} data-testid={`student-row-${s.nis}`} p="sm" style={{ display: 'block' }}>
      <Group wrap="nowrap" gap="sm" align="flex-start">
        <StudentAvatar name={s.full_name} gender={s.gender} size={36} />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={600} size="sm" truncate>
            {s.full_name}
          </Text>
          <Text size="xs" c="dimmed">
            {t('fields.nis')} {s.nis || '—'} · {t('fields.nisn')} {s.nisn || '—'}
          </Text>
          <Group gap={6}>
            <Text size="xs">{s.class_name ?? t('noClass')}</Text>
            {s.gender && (
              <Text size="xs" c="dimmed">
                · {t(`gender.${s.gender}`)}
              </Text>
            )}
            <ActiveBadge active={s.active} />
          </Group>
        </Stack>
        <IconChevronRight size={18} color="var(--mantine-color-dimmed)" />
      </Group>
    </UnstyledButton>
  );
}

export default function StudentsPage() {
  const { t } = useTranslation('students');
  const navigate = useNavigate();
  const { me, can } = useSession();
  const homeroom = me?.user.role === 'wali_kelas';
  const narrow = usePhone();

  const { filters, update, reset } = useUrlFilters(studentFilters);

  // The search box is debounced; the URL (and the query) follow it.
  const [search, setSearch] = useState(filters.q);
  const [q] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (q !== filters.q) update({ q });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs only when the values listed change (the others are read at that moment)
  }, [q]);

  const departments = useDepartments();
  const classes = useClasses();
  const students = useStudents(filters, PER_PAGE);
  const rows = students.data?.data ?? [];
  const meta = students.data?.meta;

  const classOptions = (classes.data?.data ?? [])
    .filter((c) => (!filters.departmentId || c.department_id === filters.departmentId) && (!filters.grade || c.grade === filters.grade))
    .map((c) => ({ value: String(c.id), label: c.name }));
  const ownClass = homeroom ? classes.data?.data[0] : undefined;
  const [filtersOpen, { toggle: toggleFilters }] = useDisclosure(false);
  const moreFilters = [filters.departmentId, filters.grade, filters.classId, filters.active !== 'true' || null].filter(Boolean).length;
  const filtered = !!(filters.q || filters.departmentId || filters.grade || filters.classId || filters.active !== 'true');
  const clearFilters = () => {
    setSearch('');
    reset();
  };

  const filterFields = (
    <>
      {!homeroom && (
        <>
          <Select
            label={t('filters.department')}
            placeholder={t('filters.allDepartments')}
            data={(departments.data?.data ?? []).map((d) => ({ value: String(d.id), label: `${d.code} — ${d.name}` }))}
            value={filters.departmentId ? String(filters.departmentId) : null}
            onChange={(v) => update({ departmentId: v ? Number(v) : null, classId: null })}
            clearable
            style={{ flex: '1 1 180px' }}
          />
          <Select
            label={t('filters.grade')}
            placeholder={t('filters.allGrades')}
            data={gradesOf(classes.data?.data ?? []).map((g) => ({ value: String(g), label: gradeLabel(g) }))}
            value={filters.grade ? String(filters.grade) : null}
            onChange={(v) => update({ grade: v ? (Number(v) as Grade) : null, classId: null })}
            clearable
            style={{ flex: '0 1 110px' }}
          />
          <Select
            label={t('filters.class')}
            placeholder={t('filters.allClasses')}
            data={classOptions}
            value={filters.classId ? String(filters.classId) : null}
            onChange={(v) => update({ classId: v ? Number(v) : null })}
            searchable
            clearable
            style={{ flex: '1 1 150px' }}
            data-testid="class-filter"
          />
        </>
      )}
      <Select
        label={t('filters.status')}
        data={[
          { value: 'true', label: t('filters.activeOnly') },
          { value: 'false', label: t('filters.inactiveOnly') },
          { value: 'all', label: t('filters.allStatuses') },
        ]}
        value={filters.active === '' ? 'all' : filters.active}
        onChange={(v) => update({ active: v === 'all' ? '' : v === 'false' ? 'false' : 'true' })}
        allowDeselect={false}
        style={{ flex: '0 1 150px' }}
      />
    </>
  );

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={can('students.sync') && <SyncButton />} />
      {homeroom && classes.isSuccess && (
        <Group gap="xs" mb="md" data-testid="own-class">
          <IconSchool size={18} />
          <Text size="sm">{ownClass ? t('ownClass', { name: ownClass.name }) : t('noOwnClass')}</Text>
        </Group>
      )}
      <Card withBorder padding={0}>
        <Stack p="md" gap="sm">
          <Group gap="sm" align="flex-end" wrap={narrow ? 'nowrap' : 'wrap'}>
            <TextInput
              label={t('filters.search')}
              placeholder={t('filters.searchPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              style={{ flex: '1 1 240px', minWidth: 0 }}
              data-testid="student-search"
            />
            {narrow ? (
              <Button
                variant={moreFilters > 0 ? 'light' : 'default'}
                leftSection={<IconFilter size={16} />}
                onClick={toggleFilters}
                aria-expanded={filtersOpen}
                style={{ flexShrink: 0 }}
                data-testid="toggle-filters"
              >
                {moreFilters > 0 ? t('filters.moreActive', { n: moreFilters }) : t('filters.more')}
              </Button>
            ) : (
              filterFields
            )}
          </Group>
          {narrow && (
            <Collapse in={filtersOpen}>
              <Group gap="sm" align="flex-end" wrap="wrap">
                {filterFields}
              </Group>
            </Collapse>
          )}
        </Stack>

        <DataList
          query={students}
          rows={rows}
          rowKey={(s) => s.id}
          narrow={narrow}
          label={t('title')}
          testId="students-table"
          minWidth={860}
          striped
          highlightOnHover
          head={
            <>
              <Table.Th>{t('fields.nis')}</Table.Th>
              <Table.Th>{t('fields.nisn')}</Table.Th>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('fields.genderShort')}</Table.Th>
              <Table.Th>{t('fields.class')}</Table.Th>
              <Table.Th>{t('fields.department')}</Table.Th>
              <Table.Th>{t('fields.status')}</Table.Th>
            </>
          }
          row={(s) => (
            <Table.Tr data-testid={`student-row-${s.nis}`} style={{ cursor: 'pointer' }} onClick={() => navigate(`/students/${s.id}`)}>
              <Table.Td ff="monospace" fz="sm">
                {s.nis || '—'}
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {s.nisn || '—'}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/students/${s.id}`} fw={500} size="sm" onClick={(e) => e.stopPropagation()}>
                  {s.full_name}
                </Anchor>
              </Table.Td>
              <Table.Td fz="sm">{s.gender ? t(`gender.${s.gender}`) : '—'}</Table.Td>
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {s.class_name ?? t('noClass')}
              </Table.Td>
              <Table.Td fz="sm">{s.department_code ?? '—'}</Table.Td>
              <Table.Td>
                <ActiveBadge active={s.active} />
              </Table.Td>
            </Table.Tr>
          )}
          card={(s) => <StudentCard s={s} />}
          empty={{
            message: filtered ? t('emptyFiltered') : homeroom ? t('emptyHomeroom') : t('empty'),
            onClearFilters: filtered ? clearFilters : undefined,
            testId: 'students-empty',
          }}
          meta={meta}
          onPage={(page) => update({ page })}
          summaryTestId="students-summary"
        />
      </Card>
    </>
  );
}
