import { api, type QueryValue } from '@/api/client';
import type { PageMeta } from '@/api/types';

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
export interface MessagingGateway {
  kind: GatewayKind;
  base_url: string;
  token?: string | null;
  username: string;
  password?: string | null;
  webhook_body: string;
  timeout_seconds: number;
  token_set?: boolean;
  password_set?: boolean;
}

export interface MessagingEvent {
  enabled: boolean;
  template: string;
  min_points: number;
  include_automatic: boolean;
  /** Violation only: an attendance day's message waits this long after the day's last change (1–1440, default 30). */
  settle_minutes?: number;
  /** Warning letter only: the message goes when a counselor marks the letter sent, or also when it is printed. */
  send_on?: 'sent' | 'printed';
  /** Warning letter only: the one message after a letter withdrawn once its message went out. */
  correction_template?: string;
}

export interface MessagingEvents {
  violation: MessagingEvent;
  warning_letter: MessagingEvent;
  summons: MessagingEvent;
  achievement: MessagingEvent;
}

export interface QuietHours {
  from: string;
  to: string;
}

export interface MessagingSettings {
  gateway: MessagingGateway;
  events: MessagingEvents;
  quiet_hours: QuietHours | null;
  updated_at?: string;
  placeholders?: string[];
}

export interface MessagingTestRequest {
  phone: string;
  message?: string;
  gateway?: MessagingGateway;
}

/** Exactly what the gateway answered to "Send a test message". */
export interface MessagingTestResult {
  outcome: Outcome;
  phone: string;
  http_status: number;
  answer: string;
  message_id: string;
  duration_ms: number;
  summary: string;
}

export interface MessagingPreviewRequest {
  event: ParentEvent;
  template: string;
  student_id: number;
}

export interface MessagingPreview {
  text: string;
  values: Record<string, string>;
  student_name: string;
  phone: string;
  phone_issue?: string;
}

/** One row of the delivery log; phone is masked unless phone_masked is false. */
export interface ParentMessage {
  id: number;
  student_id: number;
  student_name: string;
  class_name: string;
  event: ParentEvent;
  violation_id: number | null;
  letter_id: number | null;
  handling_id: number | null;
  parent_name: string;
  phone: string;
  phone_masked: boolean;
  body: string;
  status: ParentMessageStatus;
  skip_reason: SkipReason;
  attempts: number;
  next_attempt_at: string | null;
  gateway: string;
  gateway_message_id: string;
  last_outcome: Outcome | '';
  last_http_status: number | null;
  last_answer: string;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export interface ParentMessageAttempt {
  id: number;
  attempted_at: string;
  duration_ms: number;
  gateway: string;
  outcome: Outcome;
  http_status: number | null;
  answer: string;
}

export interface ParentMessageDetail extends ParentMessage {
  attempt_log: ParentMessageAttempt[];
}

export interface ParentMessageList {
  data: ParentMessage[];
  meta: PageMeta;
  counts: Partial<Record<ParentMessageStatus, number>>;
  paused_until: string | null;
  pause_reason: string;
}

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
