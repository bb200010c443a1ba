import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Card, Checkbox, Group, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { DataList, usePhone } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { useClasses } from '@/features/students/hooks';
import { useFormatNumber } from '@/lib/numbers';
import { useUrlFilters } from '@/lib/urlFilters';
import { useFormatDate } from '@/lib/useFormatDate';
import { yearLabel } from '../academicYear';
import { LETTERS_PER_PAGE, type LetterStatus, type WarningLetter } from '../api';
import { LetterActionsCell } from '../components/LetterActionsCell';
import { LevelBadge } from '../components/LevelBadge';
import { PrintBar } from '../components/PrintBar';
import { StatusBadge } from '../components/StatusBadge';
import { StudentPicker } from '../components/StudentPicker';
import { useAcademicYear, useLetters, useLevelColour, useLevelThresholds } from '../hooks';
import { isFiltered, LETTER_STATUSES, letterFilters } from '../letters';
import { letterPath } from '../paths';
import { EMPTY_SELECTION, pageState, printable, toggle, togglePage, type Selection } from '../selection';
import '@/app/pageStyles';

export default function LettersPage() {
  const { t } = useTranslation('warning-letters');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const phone = usePhone();
  const { filters: f, update: set, reset } = useUrlFilters(letterFilters);
  const letters = useLetters(f, LETTERS_PER_PAGE);
  const classes = useClasses();
  const thresholds = useLevelThresholds(can('violation_types.view'));
  const year = useAcademicYear();
  // This year and the four before, newest first (letters older than that are rare).
  const first = year.data ? Number(year.data.start.slice(0, 4)) : null;
  const yearOptions = first ? [0, 1, 2, 3, 4].map((i) => ({ value: String(first - i), label: yearLabel(`${first - i}-01-01`) })) : [];

  const levels = thresholds.data?.data.length ? thresholds.data.data.map((th) => ({ value: String(th.level), label: th.name || `SP ${th.level}` })) : [1, 2, 3].map((l) => ({ value: String(l), label: `SP ${l}` }));
  const rows = letters.data?.data ?? [];
  const colourOf = useLevelColour();
  // Batch printing: the chosen letters survive paging and filtering until printed or cleared.
  const canPrint = can('warning_letters.manage');
  const [chosen, setChosen] = useState<Selection>(EMPTY_SELECTION);
  const page = pageState(chosen, rows);
  const choose = (l: WarningLetter) => (
    <Checkbox
      aria-label={t('print.choose', { student: l.student_name, level: l.name || `SP ${l.level}` })}
      checked={chosen.has(l.id)}
      disabled={!printable(l)}
      onChange={() => setChosen((s) => toggle(s, l))}
      data-testid={`letter-choose-${l.id}`}
    />
  );

  const studentCell = (l: WarningLetter) => (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Anchor component={Link} to={letterPath(l.id)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={`letter-link-${l.id}`}>
        {l.student_name}
      </Anchor>
      {l.student_nisn && (
        <Text size="xs" c="dimmed">
          {t('fields.nisn', { nisn: l.student_nisn })}
        </Text>
      )}
      {l.number && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid={`letter-number-${l.id}`}>
          {t('fields.numberShort', { number: l.number })}
        </Text>
      )}
    </Stack>
  );

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Card withBorder padding={0}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} p="md" spacing="sm" data-testid="letters-filters">
          <Select
            label={t('filters.level')}
            placeholder={t('filters.all')}
            data={levels}
            value={f.level ? String(f.level) : null}
            onChange={(v) => set({ level: v ? Number(v) : null })}
            clearable
            data-testid="letters-filter-level"
          />
          <Select
            label={t('filters.class')}
            placeholder={t('filters.all')}
            data={(classes.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={f.classId ? String(f.classId) : null}
            onChange={(v) => set({ classId: v ? Number(v) : null })}
            searchable
            clearable
            data-testid="letters-filter-class"
          />
          <Select
            label={t('filters.status')}
            placeholder={t('filters.all')}
            data={LETTER_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            value={f.status}
            onChange={(v) => set({ status: (v as LetterStatus | null) ?? null })}
            clearable
            data-testid="letters-filter-status"
          />
          <DatePickerInput
            type="range"
            label={t('filters.issued')}
            placeholder={t('filters.anyDate')}
            leftSection={<IconCalendar size={16} aria-hidden />}
            valueFormat="D MMM YYYY"
            allowSingleDateInRange
            clearable
            value={[f.from, f.to]}
            onChange={([from, to]) => set({ from: from ?? null, to: to ?? null })}
            data-testid="letters-filter-dates"
          />
          <Select
            label={t('fields.year')}
            placeholder={t('filters.all')}
            data={yearOptions}
            value={f.academicYear ? String(f.academicYear) : null}
            onChange={(v) => set({ academicYear: v ? Number(v) : null })}
            clearable
            data-testid="letters-filter-year"
          />
          <StudentPicker label={t('filters.student')} value={f.studentId} onChange={(studentId) => set({ studentId })} testId="letters-filter-student" />
        </SimpleGrid>

        {canPrint && <PrintBar selection={chosen} onPrinted={() => setChosen(EMPTY_SELECTION)} onClear={() => setChosen(EMPTY_SELECTION)} />}

        <DataList
          query={letters}
          rows={rows}
          rowKey={(l) => l.id}
          narrow={phone}
          label={t('title')}
          testId="letters-table"
          minWidth={canPrint ? 1060 : 980}
          highlightOnHover
          head={
            <>
              {canPrint && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('print.choosePage')}
                    checked={page === 'all'}
                    indeterminate={page === 'some'}
                    disabled={!rows.some(printable)}
                    onChange={() => setChosen((s) => togglePage(s, rows))}
                    data-testid="letters-choose-page"
                  />
                </Table.Th>
              )}
              <Table.Th>{t('fields.student')}</Table.Th>
              <Table.Th>{t('fields.class')}</Table.Th>
              <Table.Th miw={76}>{t('fields.level')}</Table.Th>
              <Table.Th ta="right">{t('fields.points')}</Table.Th>
              <Table.Th miw={150}>{t('fields.status')}</Table.Th>
              <Table.Th>{t('fields.issued')}</Table.Th>
              <Table.Th>{t('fields.year')}</Table.Th>
              <Table.Th>{t('fields.actions')}</Table.Th>
            </>
          }
          row={(l) => (
            <Table.Tr data-testid={`letter-row-${l.id}`} data-status={l.status}>
              {canPrint && <Table.Td>{choose(l)}</Table.Td>}
              <Table.Td>{studentCell(l)}</Table.Td>
              <Table.Td>
                <Text size="sm">{l.class_name || '—'}</Text>
              </Table.Td>
              <Table.Td>
                <LevelBadge level={l.level} name={l.name} colour={colourOf(l)} />
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm" fw={600}>
                  {num(l.points)}
                </Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={l.status} testId={`letter-status-${l.id}`} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {fmt(l.issued_at, 'shortDate')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={l.past_year ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }} data-testid={`letter-year-${l.id}`}>
                  {l.academic_year ?? yearLabel(l.academic_year_start)}
                </Text>
              </Table.Td>
              <Table.Td>
                <LetterActionsCell letter={l} />
              </Table.Td>
            </Table.Tr>
          )}
          card={(l) => (
            <Stack gap="xs" px="md" py="sm" data-testid={`letter-row-${l.id}`} data-status={l.status}>
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                  {canPrint && choose(l)}
                  {studentCell(l)}
                </Group>
                <LevelBadge level={l.level} name={l.name} colour={colourOf(l)} />
              </Group>
              <Group gap="xs" wrap="wrap">
                <Text size="sm">{l.class_name || t('noClass')}</Text>
                <Text size="sm" c="dimmed">
                  ·
                </Text>
                <Text size="sm">{t('fields.pointsValue', { count: l.points, points: num(l.points) })}</Text>
                <StatusBadge status={l.status} />
              </Group>
              <Text size="xs" c="dimmed" data-testid={`letter-year-${l.id}`}>
                {t('fields.issuedOn', { date: fmt(l.issued_at, 'date') })} · {t('fields.yearLabel', { year: l.academic_year ?? yearLabel(l.academic_year_start) })}
              </Text>
              <LetterActionsCell letter={l} stacked />
            </Stack>
          )}
          empty={{ message: isFiltered(f) ? t('emptyFiltered') : t('empty'), onClearFilters: isFiltered(f) ? () => reset() : undefined, testId: 'letters-empty' }}
          meta={letters.data?.meta}
          onPage={(page) => set({ page }, { push: true })}
        />
      </Card>
    </>
  );
}
