import { useTranslation } from 'react-i18next';
import { Checkbox, Divider, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import type { GetInputPropsReturnType } from '@mantine/form';
import { IconClock } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { LeaveGuard } from '@/components/LeaveGuard';
import { errorMessage } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useSettingsForm } from '@/components/useSettingsForm';
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
  const stored = useFaceSettings();
  if (!stored.data) return <PageLoader />;
  return <Form data={stored.data} />;
}

function Form({ data }: { data: FaceSettings }) {
  const { t, i18n } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const save = useSaveFaceSettings();

  // A save (or another admin's, fetched again) becomes the new "nothing changed".
  const { form, error, onSubmit, dirty, saving } = useSettingsForm<FaceSettingsFormValues, FaceSettings, FaceSettings>({
    data,
    toValues: formFromSettings,
    initialValues: formFromSettings(data),
    validate: (v) => {
      const problems = validateFaceSettings(v);
      return Object.fromEntries(
        Object.entries(problems).map(([k, p]) => [k, t(`face.settings.errors.${p}`, { graceMax: LIMITS.graceMax, retentionMax: LIMITS.retentionMax })]),
      );
    },
    save,
    payload: settingsPayload,
    saved: t('face.settings.saved'),
    // The server names a challenge by its place (challenges[1]): that goes to the challenges.
    onError: (err, f) => {
      if (!isApiError(err) || !err.hasFieldErrors) return errorMessage(err, tc);
      const r = splitFieldErrors(err.fields);
      f.setErrors(r.form);
      return r.rest.length > 0 ? r.rest.join(' ') : null;
    },
  });

  const values = form.getValues();
  const threshold = toNumber(values.threshold);
  const margin = toNumber(values.margin);
  const challengeError = form.errors.challenges;

  return (
    <SettingsCard
      title={t('face.settings.title')}
      description={t('face.settings.description')}
      testId="face-settings-section"
      canEdit
      error={error}
      errorTestId="face-settings-error"
      onSubmit={onSubmit}
      save={{ testId: 'face-settings-save', dirty, saving, minHeight: 44 }}
      note={
        dirty ? (
          <Text span size="xs" fw={500} c="var(--mantine-color-text)" data-testid="face-settings-unsaved">
            {t('face.settings.unsaved')}
          </Text>
        ) : data.updated_at ? (
          t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })
        ) : undefined
      }
    >
      <LeaveGuard
        dirty={dirty && !saving}
        title={t('face.settings.leave.title')}
        body={t('face.settings.leave.body')}
        stay={t('face.settings.leave.stay')}
        leave={t('face.settings.leave.leave')}
        testId="face-settings-leave-dialog"
        leaveTestId="face-settings-leave-confirm"
      />
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
          <FractionInput
            label={t('face.settings.threshold')}
            description={t('face.settings.thresholdHint', { percent: percentOf(threshold, lang) })}
            min={0.01}
            inputProps={form.getInputProps('threshold')}
            testId="face-settings-threshold"
          />
          <FractionInput
            label={t('face.settings.margin')}
            description={t('face.settings.marginHint', { percent: percentOf(margin, lang) })}
            min={0}
            inputProps={form.getInputProps('margin')}
            testId="face-settings-margin"
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

    </SettingsCard>
  );
}

/** A share of 1 as a percentage for a hint, or a dash while the field is not a number. */
function percentOf(v: number, lang: string): string {
  return Number.isFinite(v) ? formatPercent(v, lang) : '—';
}

/** A matching rule entered as a fraction (0.55): up to 0.99, three decimals, touch-sized. */
function FractionInput({
  label,
  description,
  min,
  inputProps,
  testId,
}: {
  label: string;
  description: string;
  min: number;
  inputProps: GetInputPropsReturnType;
  testId: string;
}) {
  return (
    <NumberInput
      label={label}
      description={description}
      min={min}
      max={0.99}
      step={0.01}
      decimalScale={3}
      allowNegative={false}
      clampBehavior="none"
      inputMode="decimal"
      styles={{ input: { minHeight: 44 } }}
      {...inputProps}
      data-testid={testId}
    />
  );
}
