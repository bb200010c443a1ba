import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '@/i18n';

/** ID / EN switch; remembered on this device. */
export function LanguageSwitch({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size={size}
      aria-label={t('language.label')}
      value={i18n.resolvedLanguage ?? 'id'}
      onChange={(v) => setLanguage(v as Language)}
      data={LANGUAGES.map((l) => ({ value: l, label: t(`language.short.${l}`) }))}
      data-testid="language-switch"
    />
  );
}
