import { useNavigate } from 'react-router';
import type { Notification } from './api';
import { useMarkRead } from './hooks';

/** Only app paths are followed ("/violations/7"), never another site. */
export function appPath(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? url : '/notifications';
}

/** Clicking a notification: mark it read (when unread) and open its page at once. */
export function useOpenNotification(after?: () => void) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  return (n: Notification) => {
    if (!n.read_at) markRead.mutate(n.id);
    after?.();
    void navigate(appPath(n.url));
  };
}
