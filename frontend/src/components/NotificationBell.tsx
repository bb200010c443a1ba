import { lazy, Suspense, useState } from 'react';
import { ActionIcon, Center, Indicator, Loader, Popover, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATIONS_PATH, useUnreadCount } from '@/app/unread';
import { featureRoutes } from '@/registry';

const hasNotificationsPage = featureRoutes.some((r) => r.path === NOTIFICATIONS_PATH);
// The popover's list belongs to the notifications feature; loaded on the first open.
const LatestNotifications = lazy(() => import('@/features/notifications/components/LatestNotifications'));

/** The bell with the unread badge; opens the latest notifications and a link to their page. */
export function NotificationBell() {
  const { t } = useTranslation();
  const unread = useUnreadCount();
  const [opened, setOpened] = useState(false);
  const label = unread > 0 ? t('bell.unread', { count: unread }) : t('bell.label');
  // The popover's target must be the button itself: aria-expanded is not allowed on the
  // indicator's <div> (axe: aria-allowed-attr).
  return (
    <Indicator
      disabled={unread === 0}
      label={unread > 99 ? '99+' : unread}
      size={16}
      color="red"
      offset={4}
      data-testid="bell-badge"
    >
      <Popover position="bottom-end" shadow="md" withArrow opened={opened} onChange={setOpened}>
        <Popover.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} title={label} onClick={() => setOpened((o) => !o)} data-testid="bell">
            <IconBell size={22} stroke={1.6} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0}>
          {hasNotificationsPage ? (
            <Suspense
              fallback={
                <Center p="md" w={340} maw="calc(100vw - 24px)">
                  <Loader size="xs" />
                </Center>
              }
            >
              {opened && <LatestNotifications unread={unread} onClose={() => setOpened(false)} />}
            </Suspense>
          ) : (
            <Text size="sm" p="sm">
              {t('bell.empty')}
            </Text>
          )}
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
