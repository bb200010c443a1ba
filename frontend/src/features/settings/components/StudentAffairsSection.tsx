import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Button, Card, CopyButton, Divider, Group, Stack, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import { IconAlertCircle, IconCheck, IconCopy, IconPlugConnected, IconReplace, IconX } from '@tabler/icons-react';
import { applyServerErrors, errorMessage } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { useSettingsForm } from '@/components/useSettingsForm';
import { SyncPanel } from '@/features/students/components/SyncPanel';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import type { StudentAffairs, StudentAffairsInput, StudentAffairsTest } from '../api';
import { studentAffairsPayload, testPayload } from '../form';
import { useSaveStudentAffairs, useStudentAffairs, useTestStudentAffairs } from '../hooks';

interface Values {
  url: string;
  schedule: string;
  scheduleOn: boolean;
}

/** The student-affairs connection (URL, token, daily schedule), its test, and the sync. */
export function StudentAffairsSection() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const num = useFormatNumber();
  const fmt = useFormatDate();
  const stored = useStudentAffairs();
  const save = useSaveStudentAffairs();
  const test = useTestStudentAffairs();
  // null: keep the stored token; a string: the token being typed to replace it.
  const [replacement, setReplacement] = useState<string | null>(null);
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<StudentAffairsTest | null>(null);

  const data = stored.data;
  const { form, error, onSubmit, dirty, saving } = useSettingsForm<Values, StudentAffairs, StudentAffairsInput>({
    data,
    toValues: (d) => ({ url: d.url, schedule: d.schedule || '06:00', scheduleOn: d.schedule !== '' }),
    initialValues: { url: '', schedule: '06:00', scheduleOn: false },
    validate: {
      schedule: (v, all) => (all.scheduleOn && !/^([01]\d|2[0-3]):[0-5]\d$/.test(v) ? t('integrations.scheduleInvalid') : null),
    },
    save,
    payload: (v) => studentAffairsPayload(v, replacement),
    saved: t('integrations.saved'),
    onSaved: () => setTokenError(null),
    // The token is no form field: its error sits at its own input, not above the form too.
    onError: (err, f) => {
      const msg = applyServerErrors(f, err, tc);
      const fields = (err as { fields?: Record<string, string> }).fields ?? {};
      setTokenError(fields.token ?? null);
      return fields.token && msg === fields.token ? null : msg;
    },
    alsoDirty: replacement !== null && replacement.trim() !== '',
  });
  // The stored settings (loaded or saved) keep their token until "replace"; none stored asks for one.
  useEffect(() => {
    if (data) setReplacement(data.token ? null : '');
  }, [data]);

  if (!data) return <PageLoader />;

  const runTest = () => {
    setOutcome(null);
    test.mutate(testPayload(form.getValues().url, replacement), {
      onSuccess: setOutcome,
      onError: (err) => setOutcome({ ok: false, error: errorMessage(err, tc) }),
    });
  };

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="student-affairs-section">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('integrations.studentAffairs.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('integrations.studentAffairs.description')}
          </Text>
        </div>
        <form noValidate onSubmit={onSubmit} aria-label={t('integrations.studentAffairs.title')}>
          <Stack gap="md">
            {error && (
              <Alert color="red" icon={<IconAlertCircle />} role="alert">
                {error}
              </Alert>
            )}
            <TextInput
              label={t('integrations.url')}
              description={t('integrations.urlHint')}
              placeholder="https://kesiswaan.sekolah.sch.id"
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('url')}
              data-testid="sa-url"
            />
            {replacement === null ? (
              <TextInput
                label={t('integrations.token')}
                value={data.token}
                readOnly
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                data-testid="sa-token"
                rightSectionWidth={44}
                rightSection={
                  <CopyButton value={data.token} timeout={1500}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? t('integrations.copied') : t('integrations.copy')} withArrow>
                        <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('integrations.copy')}>
                          {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                }
                inputContainer={(children) => (
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
                    <Button variant="default" leftSection={<IconReplace size={16} />} onClick={() => setReplacement('')} data-testid="sa-token-replace">
                      {t('integrations.replace')}
                    </Button>
                  </Group>
                )}
              />
            ) : (
              <TextInput
                label={t('integrations.token')}
                description={data.token ? t('integrations.newTokenHint') : t('integrations.tokenHint')}
                placeholder={t('integrations.tokenPlaceholder')}
                value={replacement}
                onChange={(e) => {
                  setReplacement(e.currentTarget.value);
                  setTokenError(null);
                }}
                error={tokenError}
                autoComplete="off"
                spellCheck={false}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                autoFocus={!!data.token}
                data-testid="sa-token-input"
                inputContainer={(children) =>
                  data.token ? (
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
                      <Button
                        variant="subtle"
                        color="gray"
                        leftSection={<IconX size={16} />}
                        onClick={() => {
                          setReplacement(null);
                          setTokenError(null);
                        }}
                      >
                        {t('integrations.keepToken')}
                      </Button>
                    </Group>
                  ) : (
                    children
                  )
                }
              />
            )}
            <Group gap="md" align="flex-end" wrap="wrap">
              <Switch
                label={t('integrations.scheduleOn')}
                description={t('integrations.scheduleHint')}
                {...form.getInputProps('scheduleOn', { type: 'checkbox' })}
                style={{ flex: '1 1 260px' }}
                data-testid="sa-schedule-on"
              />
              {form.getValues().scheduleOn && (
                // 24-hour time in both languages (a native time input shows "06:00 AM" in some browsers).
                <TimePicker format="24h" label={t('integrations.scheduleTime')} w={140} {...form.getInputProps('schedule')} data-testid="sa-schedule" />
              )}
            </Group>
            <Group gap="sm" wrap="wrap">
              <Button type="submit" loading={saving} disabled={!dirty} data-testid="sa-save">
                {tc('actions.save')}
              </Button>
              <Button variant="default" leftSection={<IconPlugConnected size={18} />} onClick={runTest} loading={test.isPending} data-testid="sa-test">
                {t('integrations.test')}
              </Button>
              {data.updated_at && (
                <Text size="xs" c="dimmed">
                  {t('integrations.updatedAt', { time: fmt(data.updated_at, 'dateTime') })}
                </Text>
              )}
            </Group>
            {outcome &&
              (outcome.ok ? (
                <Alert color="teal" icon={<IconCheck />} title={t('integrations.testOk')} data-testid="sa-test-result" data-ok="true">
                  {t('integrations.testCount', { n: num(outcome.count ?? 0) })}
                </Alert>
              ) : (
                <Alert
                  color="red"
                  icon={<IconAlertCircle />}
                  title={t('integrations.testFailed')}
                  data-testid="sa-test-result"
                  data-ok="false"
                  data-kind={outcome.kind}
                >
                  <Text size="sm">{outcome.error}</Text>
                </Alert>
              ))}
          </Stack>
        </form>
        <Divider />
        <div>
          <Title order={3} size="h5" mb="xs">
            {t('integrations.syncTitle')}
          </Title>
          <SyncPanel withHistory />
        </div>
      </Stack>
    </Card>
  );
}
