import { lazy, Suspense, type ComponentPropsWithRef } from 'react';
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDeferred } from '@/app/deferred';
import { useUnreadCount } from '@/app/unread';

// The popover (Mantine's Popover and its floating positioning) is not part of the first
// screen: the same button stands in until the browser is idle or the bell is pressed.
const NotificationPopover = lazy(() => import('./NotificationPopover'));

/** The bell's button: the stand-in before the popover is downloaded, and its target after. */
export function BellButton({ label, ...props }: { label: string } & ComponentPropsWithRef<'button'>) {
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} title={label} data-testid="bell" {...props}>
      <IconBell size={22} stroke={1.6} />
    </ActionIcon>
  );
}

/** The bell with the unread badge; opens the latest notifications and a link to their page. */
export function NotificationBell() {
  const { t } = useTranslation();
  const unread = useUnreadCount();
  const { wanted, openOnLoad, want } = useDeferred();
  const label = unread > 0 ? t('bell.unread', { count: unread }) : t('bell.label');
  const standIn = <BellButton label={label} onClick={() => want(true)} />;
  return (
    <Indicator
      disabled={unread === 0}
      label={unread > 99 ? '99+' : unread}
      size={16}
      color="red"
      offset={4}
      data-testid="bell-badge"
    >
      {wanted ? (
        <Suspense fallback={standIn}>
          <NotificationPopover unread={unread} label={label} defaultOpened={openOnLoad} />
        </Suspense>
      ) : (
        standIn
      )}
    </Indicator>
  );
}
