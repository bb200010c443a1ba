import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { Alert, Button, Card, Group, NumberInput, Radio, Stack, Text, Title } from '@mantine/core';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { ViewOnlyNotice } from '@/components/ViewOnly';
import { policyApi, type PointsPolicy, type PolicyMode } from '../api';

const MODES: PolicyMode[] = ['none', 'offset', 'amnesty'];

/**
 * Settings → School: the points policy (none, offset, amnesty). Saving reduces nothing by
 * itself and never rewrites a violation's points; the server says how each mode applies.
 */
export function PointsPolicySection() {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canEdit = can('points_policy.manage');
  const qc = useQueryClient();
  const policy = useQuery({ queryKey: ['achievements', 'policy'], queryFn: ({ signal }) => policyApi.get(signal) });
  const [error, setError] = useState<string | null>(null);
  const form = useForm<PointsPolicy>({
    initialValues: { mode: 'none', offset_cap_percent: 50, amnesty_clean_school_days: 30, amnesty_points: 10 },
  });
  const data = policy.data;
  useEffect(() => {
    if (!data) return;
    form.setValues(data);
    form.resetDirty(data);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [data]);
  const save = useMutation({
    mutationFn: (p: PointsPolicy) => policyApi.save(p),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['achievements', 'policy'] });
      notifySuccess(t('policy.saved'));
    },
    onError: (err) => setError(applyServerErrors(form, err, tc)),
  });
  if (!data) return <PageLoader />;
  const mode = form.getValues().mode;
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="points-policy-section">
      <form
        noValidate
        aria-label={t('policy.title')}
        onSubmit={form.onSubmit((v) => {
          setError(null);
          save.mutate({ mode: v.mode, offset_cap_percent: v.offset_cap_percent, amnesty_clean_school_days: v.amnesty_clean_school_days, amnesty_points: v.amnesty_points });
        })}
      >
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <div>
              <Title order={2} size="h4">
                {t('policy.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('policy.description')}
              </Text>
            </div>
            {!canEdit && <ViewOnlyNotice />}
          </Group>
          {error && <Alert color="red">{error}</Alert>}
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
          {canEdit && (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()} data-testid="policy-save">
                {tc('actions.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
