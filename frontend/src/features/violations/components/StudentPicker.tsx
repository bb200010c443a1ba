import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { DEFAULT_FILTERS, studentsApi } from '@/features/students/api';
import type { Student } from '@/features/students/types';

/**
 * Finds a student by name, NIS or NISN on the server (only those the user may see: a homeroom
 * teacher's own class) and answers the chosen one.
 */
export function StudentPicker({
  value,
  onChange,
  error,
  required,
}: {
  value: Student | null;
  onChange: (s: Student | null) => void;
  error?: React.ReactNode;
  required?: boolean;
}) {
  const { t } = useTranslation('violations');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const label = (s: Student) => `${s.full_name} — ${s.class_name ?? t('noClass')} · ${s.nis || s.nisn}`;
  const typing = q.length > 0 && (!value || q !== label(value));
  const found = useQuery({
    queryKey: ['violations', 'student-search', q],
    queryFn: ({ signal }) => studentsApi.list({ ...DEFAULT_FILTERS, q }, 10, signal),
    enabled: typing,
    throwOnError: false,
  });
  const options = [...(value ? [value] : []), ...(found.data?.data ?? []).filter((s) => s.id !== value?.id)];
  return (
    <Select
      label={t('form.student')}
      placeholder={t('form.studentPlaceholder')}
      description={t('form.studentHint')}
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      clearable
      clearButtonProps={{ 'aria-label': t('filters.clear') }}
      required={required}
      data={options.map((s) => ({ value: String(s.id), label: label(s) }))}
      // The server has filtered already: show every answer as it came.
      filter={({ options: o }) => o}
      searchValue={search}
      onSearchChange={setSearch}
      value={value ? String(value.id) : null}
      onChange={(v) => onChange(options.find((s) => String(s.id) === v) ?? null)}
      nothingFoundMessage={typing && found.isSuccess ? t('form.noStudent') : undefined}
      error={error}
      data-testid="student-picker"
    />
  );
}
