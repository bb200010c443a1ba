import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Radio, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useFormatDate } from '@/lib/useFormatDate';
import { useDayRule, useSaveDayRule } from '@/features/attendance-recap/hooks';
import { DAY_RULES, type DayRule } from '@/features/attendance-recap/types';

/**
 * Settings → School → how a student's day status follows from its lesson hours (the recaps and
 * the e-Rapor figures count days by it). Changed with settings.manage; settings.view sees it.
 * Its words live with the recaps (namespace attendance-recap, dayRule.*).
 */
export function AttendanceDayRuleCard() {
  const { t } = useTranslation('attendance-recap');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const stored = useDayRule();
  const save = useSaveDayRule();
  const [rule, setRule] = useState<DayRule>('majority');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (stored.data) setRule(stored.data.rule);
  }, [stored.data]);

  if (stored.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
        {errorMessage(stored.error, tc)}
      </Alert>
    );
  }
  if (!stored.data) return <PageLoader />;
  const dirty = rule !== stored.data.rule;

  const submit = () => {
    setError(null);
    save.mutate({ rule }, { onSuccess: () => notifySuccess(t('dayRule.saved')), onError: (err) => setError(errorMessage(err, tc)) });
  };

  return (
    <SettingsCard
      title={t('dayRule.title')}
      description={t('dayRule.description')}
      testId="day-rule-card"
      canEdit={canEdit}
      error={error}
      save={{ testId: 'day-rule-save', dirty, saving: save.isPending, label: t('dayRule.save'), onClick: submit }}
      note={stored.data.updated_at ? t('dayRule.updated', { when: fmt(stored.data.updated_at, 'dateTime') }) : canEdit ? '' : t('dayRule.readOnly')}
      saveAlign="between"
    >
      <Radio.Group value={rule} onChange={(v) => setRule(v as DayRule)} aria-label={t('dayRule.title')}>
        <Stack gap="sm">
          {DAY_RULES.map((r) => (
            <Radio key={r} value={r} label={t(`dayRule.${r}.label`)} description={t(`dayRule.${r}.description`)} disabled={!canEdit} data-testid={`day-rule-${r}`} />
          ))}
        </Stack>
      </Radio.Group>
    </SettingsCard>
  );
}
