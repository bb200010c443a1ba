import { useTranslation } from 'react-i18next';
import { NumberInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useSettingsForm } from '@/components/useSettingsForm';
import { ViewOnlyList } from '@/components/ViewOnly';
import { todayInJakarta } from '@/lib/dates';
import { useFormatDate } from '@/lib/useFormatDate';
import { LetterheadLogo } from '@/features/warning-letters/components/LetterheadLogo';
import type { SchoolProfile } from '../api';
import { currentYearStart, formatMonthDay, monthDayToPickerValue, normalizeNip, parseMonthDay, pickerValueToMonthDay } from '../form';
import { useSaveSchoolProfile, useSchoolProfile } from '../hooks';

/**
 * The school profile: edited with settings.manage; with settings.view only it is shown as
 * legible text under a single "view only" mark, not as greyed-out inputs.
 */
export function SchoolProfileSection() {
  const { t, i18n } = useTranslation('settings');
  const { t: tl } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const profile = useSchoolProfile();
  const save = useSaveSchoolProfile();
  const data = profile.data;

  const { form, error, onSubmit, dirty, saving } = useSettingsForm<SchoolProfile, SchoolProfile>({
    data,
    toValues: ({ updated_at: _ignored, ...rest }) =>
      // A profile saved before the paper size existed has none: letters default to A4.
      ({ ...rest, bk_coordinator_nip: rest.bk_coordinator_nip ?? '', city: rest.city ?? '', paper_size: rest.paper_size === 'F4' ? 'F4' : 'A4' }),
    initialValues: {
      name: '',
      address: '',
      phone: '',
      logo_path: '',
      principal_name: '',
      principal_nip: '',
      bk_coordinator_name: '',
      bk_coordinator_nip: '',
      city: '',
      academic_year_start: '07-01',
      lesson_hours_per_day: 10,
      paper_size: 'A4',
      early_warning_points: 10,
      journal_previous_years: 1,
    },
    validate: {
      name: (v) => (v.trim() ? null : tc('validation.required')),
      principal_nip: (v) => (normalizeNip(v) === '' || /^\d{18}$/.test(normalizeNip(v)) ? null : t('school.nipInvalid')),
      bk_coordinator_nip: (v) => (normalizeNip(v) === '' || /^\d{18}$/.test(normalizeNip(v)) ? null : t('school.nipInvalid')),
      academic_year_start: (v) => (parseMonthDay(v) ? null : t('school.yearStartInvalid')),
    },
    save,
    payload: (v) => {
      const trimmed = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x])) as unknown as SchoolProfile;
      trimmed.principal_nip = normalizeNip(trimmed.principal_nip);
      trimmed.bk_coordinator_nip = normalizeNip(trimmed.bk_coordinator_nip);
      return trimmed;
    },
    saved: t('school.saved'),
  });

  if (!data) return <PageLoader />;

  const yearStart = currentYearStart(form.getValues().academic_year_start, todayInJakarta().format('YYYY-MM-DD'));

  return (
    <SettingsCard
      title={t('school.title')}
      description={t('school.description')}
      testId="school-profile-section"
      canEdit={canEdit}
      error={error}
      onSubmit={onSubmit}
      save={{ testId: 'school-save', dirty, saving }}
      note={canEdit && data.updated_at ? t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') }) : undefined}
    >
      {canEdit ? (
        <Stack gap="md">
          <TextInput label={t('school.name')} required {...form.getInputProps('name')} />
          <Textarea label={t('school.address')} autosize minRows={2} {...form.getInputProps('address')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('school.phone')} type="tel" {...form.getInputProps('phone')} />
            <TextInput label={t('school.city')} description={t('school.cityHint')} maxLength={100} {...form.getInputProps('city')} data-testid="school-city" />
            <TextInput label={t('school.bkCoordinator')} {...form.getInputProps('bk_coordinator_name')} />
            <TextInput
              label={t('school.bkCoordinatorNip')}
              description={t('school.nipHint')}
              inputMode="numeric"
              maxLength={30}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.getInputProps('bk_coordinator_nip')}
              onBlur={(e) => form.setFieldValue('bk_coordinator_nip', normalizeNip(e.currentTarget.value))}
              data-testid="school-bk-nip"
            />
            <TextInput label={t('school.principal')} {...form.getInputProps('principal_name')} />
            <TextInput
              label={t('school.principalNip')}
              description={t('school.nipHint')}
              inputMode="numeric"
              maxLength={30}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.getInputProps('principal_nip')}
              onBlur={(e) => form.setFieldValue('principal_nip', normalizeNip(e.currentTarget.value))}
              data-testid="school-nip"
            />
            <DatePickerInput
              label={t('school.yearStart')}
              description={yearStart ? t('school.yearStartNow', { date: fmt(yearStart, 'date') }) : t('school.yearStartHint')}
              leftSection={<IconCalendar size={18} aria-hidden />}
              valueFormat="D MMMM"
              monthLabelFormat="MMMM"
              maxLevel="month"
              minDate="2024-01-01"
              maxDate="2024-12-31"
              value={monthDayToPickerValue(form.getValues().academic_year_start)}
              onChange={(v) => form.setFieldValue('academic_year_start', pickerValueToMonthDay(v))}
              error={form.errors.academic_year_start}
              data-testid="school-year-start"
            />
            <NumberInput label={t('school.lessonHours')} min={1} max={16} allowDecimal={false} clampBehavior="none" {...form.getInputProps('lesson_hours_per_day')} />
            <NumberInput
              label={t('school.earlyWarningPoints')}
              description={t('school.earlyWarningPointsHint')}
              min={1}
              max={1000}
              allowDecimal={false}
              clampBehavior="none"
              data-testid="school-early-warning-points"
              {...form.getInputProps('early_warning_points')}
            />
            <NumberInput
              label={t('school.journalPreviousYears')}
              description={t('school.journalPreviousYearsHint')}
              min={0}
              max={5}
              allowDecimal={false}
              clampBehavior="none"
              data-testid="school-journal-previous-years"
              {...form.getInputProps('journal_previous_years')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <LetterheadLogo canEdit />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="school-paper-label">
                {tl('letterhead.paperSize')}
              </Text>
              <SegmentedControl
                aria-labelledby="school-paper-label"
                data={(['A4', 'F4'] as const).map((p) => ({ value: p, label: tl(`letterhead.paper.${p}`) }))}
                value={form.getValues().paper_size}
                onChange={(v) => form.setFieldValue('paper_size', v === 'F4' ? 'F4' : 'A4')}
                fullWidth
                size="md"
                data-testid="school-paper-size"
              />
              <Text size="xs" c="dimmed">
                {tl('letterhead.paperHint')}
              </Text>
              {form.errors.paper_size && (
                <Text size="xs" c="red.9">
                  {form.errors.paper_size}
                </Text>
              )}
            </Stack>
          </SimpleGrid>
        </Stack>
      ) : (
        <Stack gap="md" data-testid="school-profile-view">
          <ViewOnlyList
            cols={1}
            fields={[
              { label: t('school.name'), value: data.name },
              { label: t('school.address'), value: data.address },
            ]}
          />
          <ViewOnlyList
            fields={[
              { label: t('school.phone'), value: data.phone },
              { label: t('school.city'), value: data.city ?? '' },
              { label: t('school.bkCoordinator'), value: data.bk_coordinator_name },
              { label: t('school.bkCoordinatorNip'), value: data.bk_coordinator_nip ?? '' },
              { label: t('school.principal'), value: data.principal_name },
              { label: t('school.principalNip'), value: data.principal_nip },
              { label: t('school.yearStart'), value: formatMonthDay(data.academic_year_start, i18n.resolvedLanguage ?? 'id') },
              { label: t('school.lessonHours'), value: String(data.lesson_hours_per_day) },
              { label: t('school.earlyWarningPoints'), value: String(data.early_warning_points ?? 10) },
              { label: t('school.journalPreviousYears'), value: String(data.journal_previous_years ?? 1) },
              { label: tl('letterhead.paperSize'), value: tl(`letterhead.paper.${data.paper_size === 'F4' ? 'F4' : 'A4'}`) },
            ]}
          />
          <LetterheadLogo canEdit={false} />
        </Stack>
      )}
    </SettingsCard>
  );
}
