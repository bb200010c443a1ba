import { api } from '@/api/client';
import type { Page } from '@/api/types';
import type { Schema } from '@/api';

/** One notification of the signed-in user (shared/api Notification). */
export type Notification = Schema<'Notification'>;

export interface NotificationListParams {
  page: number;
  per_page: number;
}

export const notificationsApi = {
  list: (p: NotificationListParams, signal?: AbortSignal) => api.get<Page<Notification>>('/notifications', { ...p }, signal),
  markRead: (id: number) => api.post<unknown>(`/notifications/${id}/read`),
  markAllRead: () => api.post<unknown>('/notifications/read-all'),
};
