import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Card, Group, NumberInput, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { ViewOnlyList, ViewOnlyNotice } from '@/components/ViewOnly';
import { useFormatDate } from '@/lib/useFormatDate';
import { FOLLOW_UP_LIMITS, FOLLOW_UP_OWNERS, useAttendanceFollowUp, useSaveAttendanceFollowUp, validateFollowUp, type AttendanceFollowUp } from '../followUp';

/**
 * Settings → School → who follows up the automatic alpha/late violations (homeroom teacher by
 * default, or the counselors) and the sizes of the attendance early warnings. Edited with
 * settings.manage; shown as text with settings.view only.
 */
export function AttendanceFollowUpSection() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const stored = useAttendanceFollowUp();
  const save = useSaveAttendanceFollowUp();
  const [error, setError] = useState<string | null>(null);
  const { streakMin, streakMax, lateMin, daysMax } = FOLLOW_UP_LIMITS;

  const form = useForm<AttendanceFollowUp>({
    initialValues: { owner: 'homeroom_teacher', absent_streak_days: 3, late_times: 5, late_school_days: 10 },
    validate: (v) =>
      Object.fromEntries(
        Object.entries(validateFollowUp(v)).map(([k, p]) => [
          k,
          p === 'windowShort'
            ? t('followUp.windowShort', { times: v.late_times })
            : t('followUp.range', k === 'absent_streak_days' ? { min: streakMin, max: streakMax } : { min: lateMin, max: daysMax }),
        ]),
      ),
  });

  const data = stored.data;
  useEffect(() => {
    if (!data) return;
    const { updated_at: _ignored, ...v } = data;
    form.setValues(v);
    form.resetDirty(v);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [data]);

  if (!data) return <PageLoader />;

  const submit = (v: AttendanceFollowUp) => {
    setError(null);
    save.mutate(v, {
      onSuccess: () => notifySuccess(t('followUp.saved')),
      onError: (err) => setError(applyServerErrors(form, err, tc)),
    });
  };

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="follow-up-section">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('followUp.title')}>
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <div>
              <Title order={2} size="h4">
                {t('followUp.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('followUp.description')}
              </Text>
            </div>
            {!canEdit && <ViewOnlyNotice />}
          </Group>
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {error}
            </Alert>
          )}
          {canEdit ? (
            <Stack gap="md">
              <Radio.Group label={t('followUp.owner')} {...form.getInputProps('owner')} data-testid="follow-up-owner">
                <Stack gap="xs" mt="xs">
                  {FOLLOW_UP_OWNERS.map((o) => (
                    <Radio key={o} value={o} label={t(`followUp.owners.${o}`)} description={t(`followUp.ownerHint.${o}`)} data-testid={`follow-up-owner-${o}`} />
                  ))}
                </Stack>
              </Radio.Group>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <NumberInput
                  label={t('followUp.streak')}
                  description={t('followUp.streakHint')}
                  min={streakMin}
                  max={streakMax}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  {...form.getInputProps('absent_streak_days')}
                  data-testid="follow-up-streak"
                />
                <NumberInput
                  label={t('followUp.lateTimes')}
                  description={t('followUp.lateTimesHint')}
                  min={lateMin}
                  max={daysMax}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  {...form.getInputProps('late_times')}
                  data-testid="follow-up-late-times"
                />
                <NumberInput
                  label={t('followUp.lateDays')}
                  description={t('followUp.lateDaysHint')}
                  min={lateMin}
                  max={daysMax}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  {...form.getInputProps('late_school_days')}
                  data-testid="follow-up-late-days"
                />
              </SimpleGrid>
            </Stack>
          ) : (
            <ViewOnlyList
              fields={[
                { label: t('followUp.owner'), value: t(`followUp.owners.${data.owner}`) },
                { label: t('followUp.streak'), value: String(data.absent_streak_days) },
                { label: t('followUp.lateRule'), value: t('followUp.lateRuleValue', { times: data.late_times, days: data.late_school_days }) },
              ]}
            />
          )}
          {canEdit && (
            <Group gap="sm">
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()} data-testid="follow-up-save">
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
