import { useTranslation } from 'react-i18next';
import { ColorSwatch, Group, Select, type SelectProps } from '@mantine/core';
import { cssColour, MANTINE_COLOURS } from '../grouping';

/** A colour from the Mantine palette (the API also keeps a hex colour it already has). */
export function ColourSelect({ value, onChange, ...rest }: Omit<SelectProps, 'data' | 'onChange' | 'value'> & { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation('violation-types');
  const data: { value: string; label: string }[] = MANTINE_COLOURS.map((c) => ({ value: c, label: t(`colours.${c}`) }));
  if (value && !data.some((d) => d.value === value)) data.push({ value, label: t('colours.custom', { value }) });
  return (
    <Select
      {...rest}
      data={data}
      value={value || null}
      onChange={(v) => v && onChange(v)}
      allowDeselect={false}
      leftSection={<ColorSwatch color={cssColour(value)} size={16} />}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap">
          <ColorSwatch color={cssColour(option.value)} size={16} />
          {option.label}
        </Group>
      )}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
