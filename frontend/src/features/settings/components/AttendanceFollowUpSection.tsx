import { useTranslation } from 'react-i18next';
import { NumberInput, Radio, SimpleGrid, Stack } from '@mantine/core';
import { useSession } from '@/auth/session';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useSettingsForm } from '@/components/useSettingsForm';
import { ViewOnlyList } from '@/components/ViewOnly';
import { useFormatDate } from '@/lib/useFormatDate';
import { FOLLOW_UP_LIMITS, FOLLOW_UP_OWNERS, useAttendanceFollowUp, useSaveAttendanceFollowUp, validateFollowUp, type AttendanceFollowUp } from '../followUp';

/**
 * Settings → School → who follows up the automatic alpha/late violations (homeroom teacher by
 * default, or the counselors) and the sizes of the attendance early warnings. Edited with
 * settings.manage; shown as text with settings.view only.
 */
export function AttendanceFollowUpSection() {
  const { t } = useTranslation('settings');
  const fmt = useFormatDate();
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const stored = useAttendanceFollowUp();
  const { streakMin, streakMax, lateMin, daysMax } = FOLLOW_UP_LIMITS;

  const data = stored.data;
  const { form, error, onSubmit, dirty, saving } = useSettingsForm<AttendanceFollowUp, AttendanceFollowUp, AttendanceFollowUp>({
    data,
    toValues: ({ updated_at: _ignored, ...v }) => v,
    save: useSaveAttendanceFollowUp(),
    saved: t('followUp.saved'),
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

  if (!data) return <PageLoader />;

  return (
    <SettingsCard
      title={t('followUp.title')}
      description={t('followUp.description')}
      testId="follow-up-section"
      canEdit={canEdit}
      error={error}
      onSubmit={onSubmit}
      save={{ testId: 'follow-up-save', dirty, saving }}
      note={canEdit && data.updated_at && t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })}
    >
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
    </SettingsCard>
  );
}
