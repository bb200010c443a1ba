import type { ReactNode } from 'react';
import { Badge, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The one mark saying "you may look but not change this". A page or card a user may
 * only read shows this once and its values as ViewOnlyField text, never as disabled
 * inputs (greyed inputs are hard to read and look broken).
 */
export function ViewOnlyNotice() {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color="gray"
      size="lg"
      radius="sm"
      leftSection={<IconEye size={14} aria-hidden />}
      data-testid="view-only"
      style={{ textTransform: 'none' }}
    >
      {t('viewOnly.label')}
    </Badge>
  );
}

function isEmpty(v: ReactNode): boolean {
  return v === null || v === undefined || v === false || (typeof v === 'string' && v.trim() === '');
}

/** A value shown as readable text under its label; "—" when there is none. */
export function ViewOnlyField({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text component="div" size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      {/* A <div>: the value may be a badge or a list, which a <p> cannot hold. */}
      <Text component="div" size="md" style={{ overflowWrap: 'anywhere' }}>
        {isEmpty(value) ? '—' : value}
      </Text>
    </Stack>
  );
}

/** A group of read-only fields, one column on phones and `cols` from the small breakpoint. */
export function ViewOnlyList({ fields, cols = 2 }: { fields: { label: ReactNode; value: ReactNode }[]; cols?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: cols }} spacing="md" verticalSpacing="sm">
      {fields.map((f, i) => (
        <ViewOnlyField key={i} label={f.label} value={f.value} />
      ))}
    </SimpleGrid>
  );
}
