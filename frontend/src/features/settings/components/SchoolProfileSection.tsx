import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Card, Fieldset, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { todayInJakarta } from '@/lib/dates';
import { useFormatDate } from '@/lib/useFormatDate';
import type { SchoolProfile } from '../api';
import { currentYearStart, parseMonthDay } from '../form';
import { useSaveSchoolProfile, useSchoolProfile } from '../hooks';

/** The school profile: read with settings.view, edited with settings.manage. */
export function SchoolProfileSection() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const profile = useSchoolProfile();
  const save = useSaveSchoolProfile();
  const [error, setError] = useState<string | null>(null);

  const form = useForm<SchoolProfile>({
    initialValues: {
      name: '',
      address: '',
      phone: '',
      logo_path: '',
      principal_name: '',
      principal_nip: '',
      bk_coordinator_name: '',
      academic_year_start: '07-01',
      lesson_hours_per_day: 10,
    },
    validate: {
      name: (v) => (v.trim() ? null : tc('validation.required')),
      principal_nip: (v) => (v.trim() === '' || /^\d{18}$/.test(v.trim()) ? null : t('school.nipInvalid')),
      academic_year_start: (v) => (parseMonthDay(v) ? null : t('school.yearStartInvalid')),
    },
  });

  const data = profile.data;
  useEffect(() => {
    if (!data) return;
    const { updated_at: _ignored, ...v } = data;
    form.setValues(v);
    form.resetDirty(v);
  }, [data]);

  if (!data) return <PageLoader />;

  const submit = (v: SchoolProfile) => {
    setError(null);
    const trimmed = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x])) as unknown as SchoolProfile;
    save.mutate(trimmed, {
      onSuccess: () => notifySuccess(t('school.saved')),
      onError: (err) => setError(applyServerErrors(form, err, tc)),
    });
  };

  const yearStart = currentYearStart(form.getValues().academic_year_start, todayInJakarta().format('YYYY-MM-DD'));

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="school-profile-section">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('school.title')}>
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <div>
              <Title order={2} size="h4">
                {t('school.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('school.description')}
              </Text>
            </div>
            {!canEdit && (
              <Group gap={4}>
                <IconLock size={16} />
                <Text size="sm" c="dimmed">
                  {t('readOnly')}
                </Text>
              </Group>
            )}
          </Group>
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {error}
            </Alert>
          )}
          <Fieldset variant="unstyled" disabled={!canEdit}>
            <Stack gap="md">
              <TextInput label={t('school.name')} required {...form.getInputProps('name')} />
              <Textarea label={t('school.address')} autosize minRows={2} {...form.getInputProps('address')} />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t('school.phone')} type="tel" {...form.getInputProps('phone')} />
                <TextInput label={t('school.bkCoordinator')} {...form.getInputProps('bk_coordinator_name')} />
                <TextInput label={t('school.principal')} {...form.getInputProps('principal_name')} />
                <TextInput
                  label={t('school.principalNip')}
                  description={t('school.nipHint')}
                  inputMode="numeric"
                  maxLength={18}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  {...form.getInputProps('principal_nip')}
                />
                <TextInput
                  label={t('school.yearStart')}
                  description={yearStart ? t('school.yearStartNow', { date: fmt(yearStart, 'date') }) : t('school.yearStartHint')}
                  placeholder="07-01"
                  maxLength={5}
                  {...form.getInputProps('academic_year_start')}
                />
                <NumberInput label={t('school.lessonHours')} min={1} max={16} allowDecimal={false} clampBehavior="none" {...form.getInputProps('lesson_hours_per_day')} />
              </SimpleGrid>
            </Stack>
          </Fieldset>
          {canEdit && (
            <Group gap="sm">
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()} data-testid="school-save">
                {tc('actions.save')}
              </Button>
              {data.updated_at && (
                <Text size="xs" c="dimmed">
                  {t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })}
                </Text>
              )}
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
