import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { DEFAULT_FILTERS, studentsApi } from '@/features/students/api';
import type { Student } from '@/features/students/types';

/**
 * Finds a student on the server (only those the user may see) by name, NIS or NISN. The
 * chosen one is an id (kept in a URL or a form); its name is fetched when it is not known.
 */
export function StudentSearch({
  value,
  onChange,
  label,
  description,
  testId = 'pm-student-filter',
  style,
}: {
  value: number | null;
  onChange: (s: Student | null) => void;
  label: string;
  description?: string;
  testId?: string;
  style?: React.CSSProperties;
}) {
  const { t } = useTranslation('parent-messages');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const chosen = useQuery({
    queryKey: ['parent-messages', 'student', value],
    queryFn: ({ signal }) => studentsApi.get(value!, signal),
    enabled: value !== null,
    throwOnError: false,
    staleTime: 60_000,
  });
  const current = value !== null ? chosen.data : undefined;
  const text = (s: Student) => `${s.full_name} — ${s.class_name ?? t('noClass')}`;
  const typing = q.length > 0 && (!current || q !== text(current));
  const found = useQuery({
    queryKey: ['parent-messages', 'student-search', q],
    queryFn: ({ signal }) => studentsApi.list({ ...DEFAULT_FILTERS, q }, 10, signal),
    enabled: typing,
    throwOnError: false,
  });
  const options = [...(current ? [current] : []), ...(found.data?.data ?? []).filter((s) => s.id !== current?.id)];
  return (
    <Select
      label={label}
      description={description}
      placeholder={t('filters.studentPlaceholder')}
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      clearable
      clearButtonProps={{ 'aria-label': t('filters.clear') }}
      data={options.map((s) => ({ value: String(s.id), label: text(s) }))}
      filter={({ options: o }) => o}
      searchValue={search}
      onSearchChange={setSearch}
      value={value !== null ? String(value) : null}
      onChange={(v) => onChange(options.find((s) => String(s.id) === v) ?? null)}
      nothingFoundMessage={typing && found.isSuccess ? t('filters.noStudent') : undefined}
      style={style}
      data-testid={testId}
    />
  );
}
