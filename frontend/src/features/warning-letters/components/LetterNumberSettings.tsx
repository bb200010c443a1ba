import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Card, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { ViewOnlyList, ViewOnlyNotice } from '@/components/ViewOnly';
import { useLetterSettings, useSaveLetterSettings } from '../hooks';

/**
 * Settings → School: the pattern a letter's number is made from when it is first printed.
 * Edited with settings.manage; the server checks it ({seq} required, known placeholders).
 */
export function LetterNumberSettings() {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const settings = useLetterSettings();
  const save = useSaveLetterSettings();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { number_pattern: '' },
    validate: { number_pattern: (v) => (v.trim() === '' || v.includes('{seq}') ? null : t('numbering.seqRequired')) },
  });
  const data = settings.data;
  useEffect(() => {
    if (!data) return;
    form.setValues({ number_pattern: data.number_pattern });
    form.resetDirty({ number_pattern: data.number_pattern });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [data]);
  if (!data) return <PageLoader />;

  const submit = (v: { number_pattern: string }) => {
    setError(null);
    save.mutate(
      { number_pattern: v.number_pattern.trim() },
      {
        onSuccess: () => notifySuccess(t('numbering.saved')),
        onError: (err) => setError(applyServerErrors(form, err, tc)),
      },
    );
  };

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} data-testid="letter-numbering-section">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('numbering.title')}>
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <div>
              <Title order={2} size="h4">
                {t('numbering.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('numbering.description')}
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
            <TextInput
              label={t('numbering.pattern')}
              description={t('numbering.hint', { placeholders: (data.placeholders ?? []).join(' ') })}
              maxLength={100}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.getInputProps('number_pattern')}
              data-testid="letter-number-pattern"
            />
          ) : (
            <ViewOnlyList cols={1} fields={[{ label: t('numbering.pattern'), value: data.number_pattern }]} />
          )}
          {data.example && (
            <Text size="sm">
              {t('numbering.example')} <Code data-testid="letter-number-example">{data.example}</Code>
            </Text>
          )}
          {canEdit && (
            <Group gap="sm">
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()} data-testid="letter-numbering-save">
                {tc('actions.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
