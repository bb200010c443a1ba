import { lazy, Suspense, useState } from 'react';
import { Center, Loader, Popover, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NOTIFICATIONS_PATH } from '@/app/unread';
import { featureRoutes } from '@/registry';
import { BellButton } from './NotificationBell';
import '@/app/pageStyles';

const hasNotificationsPage = featureRoutes.some((r) => r.path === NOTIFICATIONS_PATH);
// The popover's list belongs to the notifications feature; loaded on the first open.
const LatestNotifications = lazy(() => import('@/features/notifications/components/LatestNotifications'));

/** The bell's popover: the latest notifications and a link to their page (after the first screen). */
export default function NotificationPopover({ unread, label, defaultOpened }: { unread: number; label: string; defaultOpened: boolean }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(defaultOpened);
  // The popover's target must be the button itself: aria-expanded is not allowed on the
  // indicator's <div> (axe: aria-allowed-attr).
  return (
    <Popover position="bottom-end" shadow="md" withArrow opened={opened} onChange={setOpened}>
      <Popover.Target>
        <BellButton label={label} onClick={() => setOpened((o) => !o)} />
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
  );
}
