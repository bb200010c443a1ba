import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Group, NumberInput, Radio, Stack, Text } from '@mantine/core';
import { useSession } from '@/auth/session';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useSettingsForm } from '@/components/useSettingsForm';
import { policyApi, type PointsPolicy, type PolicyMode } from '../api';

const MODES: PolicyMode[] = ['none', 'offset', 'amnesty'];

/**
 * Settings → School: the points policy (none, offset, amnesty). Saving reduces nothing by
 * itself and never rewrites a violation's points; the server says how each mode applies.
 */
export function PointsPolicySection() {
  const { t } = useTranslation('achievements');
  const { can } = useSession();
  const canEdit = can('points_policy.manage');
  const qc = useQueryClient();
  const policy = useQuery({ queryKey: ['achievements', 'policy'], queryFn: ({ signal }) => policyApi.get(signal) });
  const save = useMutation({
    mutationFn: (p: PointsPolicy) => policyApi.save(p),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['achievements', 'policy'] }),
  });
  const data = policy.data;
  const { form, error, onSubmit, dirty, saving } = useSettingsForm<PointsPolicy, PointsPolicy, PointsPolicy>({
    data,
    toValues: (d) => d,
    initialValues: { mode: 'none', offset_cap_percent: 50, amnesty_clean_school_days: 30, amnesty_points: 10 },
    save,
    payload: (v) => ({ mode: v.mode, offset_cap_percent: v.offset_cap_percent, amnesty_clean_school_days: v.amnesty_clean_school_days, amnesty_points: v.amnesty_points }),
    saved: t('policy.saved'),
  });
  if (!data) return <PageLoader />;
  const mode = form.getValues().mode;
  return (
    <SettingsCard
      title={t('policy.title')}
      description={t('policy.description')}
      testId="points-policy-section"
      canEdit={canEdit}
      error={error}
      onSubmit={onSubmit}
      save={{ testId: 'policy-save', dirty, saving }}
      saveAlign="end"
    >
      <Radio.Group {...form.getInputProps('mode')} data-testid="policy-mode">
        <Stack gap="xs">
          {MODES.map((m) => (
            <Radio key={m} value={m} disabled={!canEdit} label={t(`policy.mode.${m}`)} description={t(`policy.modeHint.${m}`)} data-testid={`policy-mode-${m}`} />
          ))}
        </Stack>
      </Radio.Group>
      {mode === 'offset' && (
        <NumberInput label={t('policy.cap')} min={1} max={100} suffix=" %" disabled={!canEdit} {...form.getInputProps('offset_cap_percent')} data-testid="policy-cap" />
      )}
      {mode === 'amnesty' && (
        <Group grow wrap="wrap">
          <NumberInput label={t('policy.days')} min={1} max={365} disabled={!canEdit} {...form.getInputProps('amnesty_clean_school_days')} data-testid="policy-days" />
          <NumberInput label={t('policy.points')} min={1} max={1000} disabled={!canEdit} {...form.getInputProps('amnesty_points')} data-testid="policy-points" />
        </Group>
      )}
      <Text size="xs" c="dimmed">
        {t('policy.history')}
      </Text>
    </SettingsCard>
  );
}
