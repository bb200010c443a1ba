import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { DEFAULT_FILTERS, studentsApi } from '@/features/students/api';
import type { Student } from '@/features/students/types';

/**
 * One or several students (a team), found on the server by name, NIS or NISN: only those
 * the user may see (a homeroom teacher's own class).
 */
export function StudentsPicker({ value, onChange, error }: { value: Student[]; onChange: (s: Student[]) => void; error?: React.ReactNode }) {
  const { t } = useTranslation('achievements');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const found = useQuery({
    queryKey: ['achievements', 'student-search', q],
    queryFn: ({ signal }) => studentsApi.list({ ...DEFAULT_FILTERS, q }, 10, signal),
    enabled: q.length > 0,
    throwOnError: false,
  });
  const options = [...value, ...(found.data?.data ?? []).filter((s) => !value.some((v) => v.id === s.id))];
  const label = (s: Student) => `${s.full_name} — ${s.class_name ?? '–'}`;
  return (
    <MultiSelect
      label={t('record.students')}
      description={t('record.studentsHint')}
      placeholder={value.length === 0 ? t('record.studentsPlaceholder') : undefined}
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      required
      data={options.map((s) => ({ value: String(s.id), label: label(s) }))}
      filter={({ options: o }) => o}
      searchValue={search}
      onSearchChange={setSearch}
      value={value.map((s) => String(s.id))}
      onChange={(ids) => {
        onChange(ids.map((id) => options.find((s) => String(s.id) === id)).filter((s): s is Student => !!s));
        setSearch('');
      }}
      nothingFoundMessage={q && found.isSuccess ? t('record.noStudent') : undefined}
      error={error}
      data-testid="students-picker"
    />
  );
}
