import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Box, Center, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { NOTIFICATIONS_PATH } from '@/app/unread';
import { useMarkAllRead, useNotifications } from '../hooks';
import { useOpenNotification } from '../open';
import { DesktopNotifyPrompt } from './DesktopNotifyPrompt';
import { NotificationItem } from './NotificationItem';

/** The bell's popover: the latest five, "mark all read" and a link to the page. */
export default function LatestNotifications({ onClose, unread }: { onClose: () => void; unread: number }) {
  const { t } = useTranslation('notifications');
  const list = useNotifications({ page: 1, per_page: 5 });
  const markAll = useMarkAllRead();
  const open = useOpenNotification(onClose);
  const rows = list.data?.data ?? [];
  return (
    <Box w={340} maw="calc(100vw - 24px)" data-testid="bell-popover">
      <Group justify="space-between" px="sm" py={6} gap="xs" wrap="nowrap">
        <Text size="sm" fw={700}>
          {t('latest')}
        </Text>
        {unread > 0 && (
          <UnstyledButton onClick={() => markAll.mutate()} data-testid="bell-mark-all-read">
            <Text size="xs" c="blue.8" fw={500}>
              {t('markAllRead')}
            </Text>
          </UnstyledButton>
        )}
      </Group>
      {list.isPending ? (
        <Center p="md">
          <Loader size="xs" />
        </Center>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed" px="sm" py="md" ta="center">
          {t('empty')}
        </Text>
      ) : (
        <Stack gap={0}>
          {rows.map((n) => (
            <NotificationItem key={n.id} n={n} onOpen={open} compact />
          ))}
        </Stack>
      )}
      <DesktopNotifyPrompt />
      <Box px="sm" py={8} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }} ta="center">
        <Anchor component={Link} to={NOTIFICATIONS_PATH} size="sm" onClick={onClose} data-testid="bell-see-all">
          {t('seeAll')}
        </Anchor>
      </Box>
    </Box>
  );
}
