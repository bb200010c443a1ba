import { useQuery } from '@tanstack/react-query';
import { api } from '@/api/client';
import { isUnreachable } from '@/api/errors';

/** The query key of the unread count; the real-time channel sets it (RealtimeProvider). */
export const UNREAD_COUNT_KEY = ['notifications', 'unread-count'] as const;

/** Every notifications query starts with this key: a new notification invalidates them all. */
export const NOTIFICATIONS_KEY = ['notifications'] as const;

/**
 * The unread-notification count shown on the bell: GET /notifications/unread-count, kept
 * live by the server's push (RealtimeProvider sets it on each "unread" message). A failure
 * shows no badge rather than an error page: the bell is on every screen.
 */
export function useUnreadCount(): number {
  const q = useQuery({
    queryKey: UNREAD_COUNT_KEY,
    queryFn: ({ signal }) => api.get<{ count: number }>('/notifications/unread-count', undefined, signal),
    staleTime: 60_000,
    throwOnError: false,
    retry: (n, err) => isUnreachable(err) && n < 2,
  });
  return q.data?.count ?? 0;
}

/** Where the bell leads once the notifications feature registers this route. */
export const NOTIFICATIONS_PATH = '/notifications';
