import type { ReactNode } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * What a list shows when it has nothing to show. With `onClearFilters` (the list is filtered)
 * it offers to clear the filters, so an empty result is never a dead end.
 */
export function EmptyState({
  message,
  onClearFilters,
  testId,
  children,
}: {
  message: ReactNode;
  /** Set when filters are narrowing the list: shows a "clear filters" button. */
  onClearFilters?: () => void;
  testId?: string;
  /** Further actions (e.g. "add the first one"). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="sm" p="xl" data-testid={testId ?? 'empty-state'}>
      <Text c="dimmed" ta="center">
        {message}
      </Text>
      {onClearFilters && (
        <Button variant="light" size="sm" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={onClearFilters} data-testid="clear-filters">
          {t('actions.clearFilters')}
        </Button>
      )}
      {children}
    </Stack>
  );
}
