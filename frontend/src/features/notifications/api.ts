import { api } from '@/api/client';
import type { Page } from '@/api/types';

/** One notification of the signed-in user (shared/api Notification). */
export interface Notification {
  id: number;
  /** "violation" (one recorded by hand) or "attendance" (a form save or journal push, grouped). */
  kind: string;
  /** Rendered by the server in the request's language. */
  title: string;
  body: string;
  /** The app page it opens: /violations/{id} or the filtered list. */
  url: string;
  params: Record<string, unknown> | null;
  violation_id: number | null;
  /** RFC 3339 instant. */
  created_at: string;
  read_at: string | null;
}

export interface NotificationListParams {
  page: number;
  per_page: number;
}

export const notificationsApi = {
  list: (p: NotificationListParams, signal?: AbortSignal) => api.get<Page<Notification>>('/notifications', { ...p }, signal),
  markRead: (id: number) => api.post<unknown>(`/notifications/${id}/read`),
  markAllRead: () => api.post<unknown>('/notifications/read-all'),
};
