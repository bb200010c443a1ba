import { useTranslation } from 'react-i18next';
import { Code, Text, TextInput } from '@mantine/core';
import { useSession } from '@/auth/session';
import { PageLoader } from '@/components/PageLoader';
import { SettingsCard } from '@/components/SettingsCard';
import { useSettingsForm } from '@/components/useSettingsForm';
import { ViewOnlyList } from '@/components/ViewOnly';
import { useLetterSettings, useSaveLetterSettings } from '../hooks';

/**
 * Settings → School: the pattern a letter's number is made from when it is first printed.
 * Edited with settings.manage; the server checks it ({seq} required, known placeholders).
 */
export function LetterNumberSettings() {
  const { t } = useTranslation('warning-letters');
  const { can } = useSession();
  const canEdit = can('settings.manage');
  const settings = useLetterSettings();
  const data = settings.data;
  const { form, error, onSubmit, dirty, saving } = useSettingsForm({
    data,
    toValues: (d) => ({ number_pattern: d.number_pattern }),
    initialValues: { number_pattern: '' },
    validate: { number_pattern: (v) => (v.trim() === '' || v.includes('{seq}') ? null : t('numbering.seqRequired')) },
    save: useSaveLetterSettings(),
    payload: (v) => ({ number_pattern: v.number_pattern.trim() }),
    saved: t('numbering.saved'),
  });
  if (!data) return <PageLoader />;

  return (
    <SettingsCard
      title={t('numbering.title')}
      description={t('numbering.description')}
      testId="letter-numbering-section"
      canEdit={canEdit}
      error={error}
      onSubmit={onSubmit}
      save={{ testId: 'letter-numbering-save', dirty, saving }}
    >
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
    </SettingsCard>
  );
}
