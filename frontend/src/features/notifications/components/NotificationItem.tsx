import { useTranslation } from 'react-i18next';
import { Box, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { formatDate } from '@/lib/dates';
import type { Notification } from '../api';

/**
 * One notification as a button: title, body, time in Jakarta and, while unread, a dot and
 * bold title. Clicking it marks it read and opens its page (the caller decides both).
 * `divided`: a line above it (not in a list that draws its own, DataList's).
 */
export function NotificationItem({
  n,
  onOpen,
  compact = false,
  divided = true,
}: {
  n: Notification;
  onOpen: (n: Notification) => void;
  compact?: boolean;
  divided?: boolean;
}) {
  const { t, i18n } = useTranslation('notifications');
  const unread = !n.read_at;
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return (
    <UnstyledButton
      onClick={() => onOpen(n)}
      w="100%"
      px={compact ? 'sm' : 'md'}
      py="sm"
      data-testid={`notification-${n.id}`}
      data-unread={unread ? 'true' : 'false'}
      style={{ display: 'block', borderTop: divided ? '1px solid var(--mantine-color-gray-2)' : undefined, background: unread ? 'var(--mantine-color-blue-0)' : undefined }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Box
          mt={6}
          w={8}
          h={8}
          style={{ flex: '0 0 8px', borderRadius: 4, background: unread ? 'var(--mantine-color-blue-7)' : 'transparent' }}
          aria-hidden
        />
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
            <Text size="sm" fw={unread ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
              {unread && <VisuallyHidden component="span">{t('unread')}: </VisuallyHidden>}
              {n.title}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDate(n.created_at, 'dateTime', lang)}
            </Text>
          </Group>
          {n.body && (
            <Text size="sm" c="dark.4" lineClamp={compact ? 2 : undefined} style={{ overflowWrap: 'anywhere' }}>
              {n.body}
            </Text>
          )}
        </Box>
      </Group>
    </UnstyledButton>
  );
}
