import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Card, Checkbox, Divider, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { IconAlertCircle, IconClock } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { LeaveGuard } from '@/components/LeaveGuard';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { useFormatDate } from '@/lib/useFormatDate';
import { CHALLENGES, type FaceSettings } from '@/features/face-scans/api';
import { formatPercent } from '@/features/face-scans/display';
import { useFaceSettings, useSaveFaceSettings } from '@/features/face-scans/hooks';
import {
  formFromSettings,
  LIMITS,
  normaliseChallenges,
  settingsPayload,
  splitFieldErrors,
  toNumber,
  validateFaceSettings,
  type FaceSettingsFormValues,
} from '@/features/face-scans/settingsForm';

/** Settings → Face-ID → the rules of the gate: start time, grace, matching and retention. */
export function FaceSettingsForm() {
  const { t } = useTranslation('settings');
  const stored = useFaceSettings();
  if (!stored.data) return <PageLoader />;
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="face-settings-section">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('face.settings.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('face.settings.description')}
          </Text>
        </div>
        <Form data={stored.data} />
      </Stack>
    </Card>
  );
}

function Form({ data }: { data: FaceSettings }) {
  const { t, i18n } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const save = useSaveFaceSettings();
  const [error, setError] = useState<string | null>(null);

  const form = useForm<FaceSettingsFormValues>({
    initialValues: formFromSettings(data),
    validate: (v) => {
      const problems = validateFaceSettings(v);
      return Object.fromEntries(
        Object.entries(problems).map(([k, p]) => [k, t(`face.settings.errors.${p}`, { graceMax: LIMITS.graceMax, retentionMax: LIMITS.retentionMax })]),
      );
    },
  });

  // A save (or another admin's, fetched again) becomes the new "nothing changed".
  useEffect(() => {
    const v = formFromSettings(data);
    form.setValues(v);
    form.resetDirty(v);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [data]);

  const dirty = form.isDirty();

  const submit = (v: FaceSettingsFormValues) => {
    setError(null);
    save.mutate(settingsPayload(v), {
      onSuccess: () => notifySuccess(t('face.settings.saved')),
      onError: (err) => {
        if (isApiError(err) && err.hasFieldErrors) {
          const r = splitFieldErrors(err.fields);
          form.setErrors(r.form);
          setError(r.rest.length > 0 ? r.rest.join(' ') : null);
        } else setError(errorMessage(err, tc));
      },
    });
  };

  const values = form.getValues();
  const threshold = toNumber(values.threshold);
  const margin = toNumber(values.margin);
  const challengeError = form.errors.challenges;

  return (
    <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('face.settings.title')}>
      <LeaveGuard
        dirty={dirty && !save.isPending}
        title={t('face.settings.leave.title')}
        body={t('face.settings.leave.body')}
        stay={t('face.settings.leave.stay')}
        leave={t('face.settings.leave.leave')}
        testId="face-settings-leave-dialog"
        leaveTestId="face-settings-leave-confirm"
      />
      <Stack gap="lg">
        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="face-settings-error">
            {error}
          </Alert>
        )}

        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('face.settings.arrival')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TimeInput
              label={t('face.settings.start')}
              description={t('face.settings.startHint')}
              leftSection={<IconClock size={16} aria-hidden />}
              styles={{ input: { minHeight: 44 } }}
              {...form.getInputProps('school_start')}
              data-testid="face-settings-start"
            />
            <NumberInput
              label={t('face.settings.grace')}
              description={t('face.settings.graceHint')}
              min={0}
              max={LIMITS.graceMax}
              step={1}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              styles={{ input: { minHeight: 44 } }}
              {...form.getInputProps('late_grace_minutes')}
              data-testid="face-settings-grace"
            />
          </SimpleGrid>
        </Stack>

        <Divider />
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('face.settings.matching')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('face.settings.matchingHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NumberInput
              label={t('face.settings.threshold')}
              description={t('face.settings.thresholdHint', {
                percent: Number.isFinite(threshold) ? formatPercent(threshold, lang) : '—',
              })}
              min={0.01}
              max={0.99}
              step={0.01}
              decimalScale={3}
              allowNegative={false}
              clampBehavior="none"
              inputMode="decimal"
              styles={{ input: { minHeight: 44 } }}
              {...form.getInputProps('threshold')}
              data-testid="face-settings-threshold"
            />
            <NumberInput
              label={t('face.settings.margin')}
              description={t('face.settings.marginHint', {
                percent: Number.isFinite(margin) ? formatPercent(margin, lang) : '—',
              })}
              min={0}
              max={0.99}
              step={0.01}
              decimalScale={3}
              allowNegative={false}
              clampBehavior="none"
              inputMode="decimal"
              styles={{ input: { minHeight: 44 } }}
              {...form.getInputProps('margin')}
              data-testid="face-settings-margin"
            />
          </SimpleGrid>
        </Stack>

        <Divider />
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('face.settings.liveness')}
          </Title>
          <Checkbox.Group
            label={t('face.settings.challenges')}
            description={t('face.settings.challengesHint')}
            value={values.challenges}
            onChange={(v) => form.setFieldValue('challenges', normaliseChallenges(v))}
            error={challengeError}
          >
            <Stack gap="xs" mt="xs">
              {CHALLENGES.map((k) => (
                <Checkbox
                  key={k}
                  value={k}
                  size="md"
                  label={t(`face.settings.challenge.${k}`)}
                  data-testid={`face-settings-challenge-${k}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        </Stack>

        <Divider />
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('face.settings.privacy')}
          </Title>
          <NumberInput
            label={t('face.settings.retention')}
            description={t('face.settings.retentionHint')}
            min={0}
            max={LIMITS.retentionMax}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            maw={{ base: '100%', sm: 320 }}
            styles={{ input: { minHeight: 44 } }}
            {...form.getInputProps('retention_days')}
            data-testid="face-settings-retention"
          />
        </Stack>

        <Group gap="sm">
          <Button type="submit" mih={44} loading={save.isPending} disabled={!dirty} data-testid="face-settings-save">
            {tc('actions.save')}
          </Button>
          {dirty && (
            <Text size="xs" fw={500} data-testid="face-settings-unsaved">
              {t('face.settings.unsaved')}
            </Text>
          )}
          {data.updated_at && !dirty && (
            <Text size="xs" c="dimmed">
              {t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })}
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}
