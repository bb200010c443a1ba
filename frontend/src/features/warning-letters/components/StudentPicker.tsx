import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_FILTERS, studentsApi } from '@/features/students/api';
import { useStudent } from '@/features/students/hooks';

/** Picks one student by name, NIS or NISN (searched on the server, within what the user may see). */
export function StudentPicker({ value, onChange, label, testId }: { value: number | null; onChange: (id: number | null) => void; label: string; testId?: string }) {
  const { t } = useTranslation('warning-letters');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const found = useQuery({
    queryKey: ['students', 'pick', q],
    queryFn: ({ signal }) => studentsApi.list({ ...DEFAULT_FILTERS, q, active: '' }, 10, signal),
    enabled: q.length >= 2,
    staleTime: 30_000,
  });
  const chosen = useStudent(value ?? 0);
  const options = new Map<string, string>();
  if (value && chosen.data) options.set(String(value), chosen.data.full_name);
  for (const s of found.data?.data ?? []) options.set(String(s.id), `${s.full_name}${s.class_name ? ` · ${s.class_name}` : ''}`);

  return (
    <Select
      label={label}
      placeholder={t('filters.studentPlaceholder')}
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      clearable
      filter={({ options: o }) => o}
      searchValue={search}
      onSearchChange={setSearch}
      data={[...options].map(([v, l]) => ({ value: v, label: l }))}
      value={value ? String(value) : null}
      onChange={(v) => onChange(v ? Number(v) : null)}
      nothingFoundMessage={q.length >= 2 && !found.isFetching ? t('filters.noStudent') : t('filters.typeToSearch')}
      data-testid={testId}
    />
  );
}
