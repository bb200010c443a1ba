import { ActionIcon, Indicator, Popover, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NOTIFICATIONS_PATH, useUnreadCount } from '@/app/unread';
import { featureRoutes } from '@/registry';

const hasNotificationsPage = featureRoutes.some((r) => r.path === NOTIFICATIONS_PATH);

/** The bell with the unread badge; opens the notifications page once it exists. */
export function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unread = useUnreadCount();
  const label = unread > 0 ? t('bell.unread', { count: unread }) : t('bell.label');
  const button = (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
      title={label}
      onClick={hasNotificationsPage ? () => navigate(NOTIFICATIONS_PATH) : undefined}
    >
      <IconBell size={22} stroke={1.6} />
    </ActionIcon>
  );
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
      {hasNotificationsPage ? (
        button
      ) : (
        <Popover position="bottom-end" shadow="md" withArrow>
          <Popover.Target>{button}</Popover.Target>
          <Popover.Dropdown>
            <Text size="sm">{t('bell.empty')}</Text>
          </Popover.Dropdown>
        </Popover>
      )}
    </Indicator>
  );
}
