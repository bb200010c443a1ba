import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_KEY, UNREAD_COUNT_KEY } from '@/app/unread';
import { notificationsApi, type NotificationListParams } from './api';

/** Query keys start with "notifications" (src/app/unread.ts), which the real-time channel invalidates. */
export const notificationKeys = {
  all: NOTIFICATIONS_KEY,
  lists: [...NOTIFICATIONS_KEY, 'list'] as const,
  list: (p: NotificationListParams) => [...NOTIFICATIONS_KEY, 'list', p] as const,
};

/** A page of the signed-in user's notifications, newest first. */
export function useNotifications(params: NotificationListParams, enabled = true) {
  return useQuery({
    queryKey: notificationKeys.list(params),
    queryFn: ({ signal }) => notificationsApi.list(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

/** Marks one notification read; the list and the badge follow. */
export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => notificationsApi.markRead(id),
    onSettled: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

/** Marks every notification read: the badge goes to 0 at once. */
export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => notificationsApi.markAllRead(),
    onSuccess: () => qc.setQueryData(UNREAD_COUNT_KEY, { count: 0 }),
    onSettled: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
