import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';

export interface DateRangeFilterProps {
  label: string;
  placeholder: string;
  /** Name of the clear button, for screen readers. */
  clearLabel: string;
  /** YYYY-MM-DD, '' for none. */
  from: string;
  to: string;
  /** Called with both ends chosen, or both '' when cleared. */
  onChange: (from: string, to: string) => void;
  testId: string;
}

/**
 * A list's period filter: a range applied once both ends are chosen (one day counts as a range),
 * or when it is cleared; a half-chosen range changes nothing yet.
 */
export function DateRangeFilter({ label, placeholder, clearLabel, from, to, onChange, testId }: DateRangeFilterProps) {
  return (
    <DatePickerInput
      type="range"
      label={label}
      placeholder={placeholder}
      leftSection={<IconCalendar size={16} aria-hidden />}
      valueFormat="D MMM YYYY"
      value={[from || null, to || null]}
      onChange={([a, b]) => {
        if ((a && b) || (!a && !b)) onChange(a ?? '', b ?? '');
      }}
      clearable
      clearButtonProps={{ 'aria-label': clearLabel }}
      allowSingleDateInRange
      style={{ flex: '1 1 230px', minWidth: 0 }}
      data-testid={testId}
    />
  );
}
