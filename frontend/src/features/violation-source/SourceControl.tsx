import { Group, SegmentedControl, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SOURCES, type Source } from './source';

/**
 * The one "Sumber" control (Perilaku / Absensi / Semua) of the violation list, the dashboard,
 * the reports and the early warnings. Nothing is chosen while the screen's source is not known
 * yet.
 */
export function SourceControl({ value, onChange, testId = 'source-control' }: { value: Source | null; onChange: (s: Source) => void; testId?: string }) {
  const { t } = useTranslation('violation-source');
  return (
    <Group gap="xs" wrap="wrap" data-testid={testId} data-source={value ?? ''}>
      <Text size="sm" fw={500} component="span" id={`${testId}-label`}>
        {t('label')}
      </Text>
      <SegmentedControl
        value={value ?? ''}
        onChange={(v) => {
          const s = SOURCES.find((x) => x === v);
          if (s) onChange(s);
        }}
        data={SOURCES.map((s) => ({ value: s, label: <span title={t(`hint.${s}`)}>{t(`source.${s}`)}</span> }))}
        aria-labelledby={`${testId}-label`}
        size="sm"
        style={{ flex: '0 1 auto' }}
      />
    </Group>
  );
}
