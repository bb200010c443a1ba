import { api, type QueryValue } from '@/api/client';
import type { Schema } from '@/api';
import { day, id, oneOf, type FiltersOf } from '@/lib/urlFilters';

/** Wire types of parent messaging (shared/api/parentmessages.go). */

export const EVENTS = ['violation', 'warning_letter', 'summons', 'achievement'] as const;
export type ParentEvent = (typeof EVENTS)[number];

export const STATUSES = ['queued', 'sent', 'failed', 'cancelled', 'skipped'] as const;
export type ParentMessageStatus = (typeof STATUSES)[number];

export const GATEWAY_KINDS = ['fonnte', 'wablas', 'gowa', 'webhook'] as const;
/** '' means no gateway: nothing is sent. */
export type GatewayKind = (typeof GATEWAY_KINDS)[number] | '';

export const OUTCOMES = ['sent', 'permanent', 'temporary', 'rate_limited'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export type SkipReason = '' | 'no_phone' | 'invalid_phone' | 'consent_withdrawn' | 'digest' | 'guardian_off';

/** The gateway's connection. Token and password are write-only: absent keeps, "" clears. */
export type MessagingGateway = Schema<'MessagingGateway'>;

export type MessagingEvent = Schema<'MessagingEvent'>;

export type MessagingEvents = MessagingSettings['events'];

export type QuietHours = MessagingSettings['quiet_hours'];

export type MessagingSettings = Schema<'MessagingSettings'>;

export type MessagingTestRequest = Schema<'MessagingTestRequest'>;

/** Exactly what the gateway answered to "Send a test message". */
export type MessagingTestResult = Schema<'MessagingTestResult'>;

export type MessagingPreviewRequest = Schema<'MessagingPreviewRequest'>;

export type MessagingPreview = Schema<'MessagingPreview'>;

/** One row of the delivery log; phone is masked unless phone_masked is false. */
export type ParentMessage = Schema<'ParentMessage'>;

export type ParentMessageAttempt = Schema<'ParentMessageAttempt'>;

export type ParentMessageDetail = Schema<'ParentMessageDetail'>;

export type ParentMessageList = Schema<'ParentMessageList'>;

export const parentMessagesApi = {
  list: (q: Record<string, QueryValue>, signal?: AbortSignal) => api.get<ParentMessageList>('/parent-messages', q, signal),
  detail: (id: number, signal?: AbortSignal) => api.get<ParentMessageDetail>(`/parent-messages/${id}`, undefined, signal),
  retry: (id: number) => api.post<ParentMessage>(`/parent-messages/${id}/retry`),
  cancel: (id: number) => api.post<ParentMessage>(`/parent-messages/${id}/cancel`),
  retryFailed: () => api.post<{ count: number }>('/parent-messages/retry-failed'),
};

export const messagingApi = {
  settings: (signal?: AbortSignal) => api.get<MessagingSettings>('/settings/messaging', undefined, signal),
  save: (s: MessagingSettings) => api.put<MessagingSettings>('/settings/messaging', s),
  test: (r: MessagingTestRequest) => api.post<MessagingTestResult>('/settings/messaging/test', r),
  preview: (r: MessagingPreviewRequest, signal?: AbortSignal) => api.post<MessagingPreview>('/settings/messaging/preview', r, { signal }),
};

/** The delivery log's filters, as kept in the page's URL (each end of the period on its own). */
export const logFilters = {
  status: oneOf('status', STATUSES),
  event: oneOf('event', EVENTS),
  classId: id('class_id'),
  studentId: id('student_id'),
  from: day('from'),
  to: day('to'),
};

export type LogFilters = FiltersOf<typeof logFilters>;

/** Whether anything but the status narrows the list (the status chips stay visible). */
export function isFiltered(f: LogFilters): boolean {
  return !!(f.event || f.classId || f.studentId || f.from || f.to);
}

/** The GET /parent-messages query (empty values are dropped by the client). */
export function listQuery(f: LogFilters, perPage: number): Record<string, QueryValue> {
  return {
    status: f.status,
    event: f.event,
    class_id: f.classId,
    student_id: f.studentId,
    from: f.from,
    to: f.to,
    page: f.page,
    per_page: perPage,
  };
}
