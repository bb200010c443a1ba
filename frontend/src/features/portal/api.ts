import { api, apiRequest } from '@/api/client';
import type { Schema } from '@/api';

/** Wire types of the family portal (shared/api/portal.go). */

export const RELATIONS = ['ayah', 'ibu', 'wali', 'lainnya'] as const;
export type Relation = (typeof RELATIONS)[number];

export type PortalGuardian = Schema<'PortalGuardian'>;

export type PortalSettings = Schema<'PortalSettings'>;

export const NOTIFY_KINDS = ['violation', 'attendance', 'warning_letter', 'summons', 'achievement', 'excuse', 'absent_notice'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
export type NotifyMode = 'immediate' | 'digest' | 'off';

export type NotificationPrefs = Schema<'NotificationPrefs'>;

export type PortalCodeAnswer = Schema<'PortalCodeAnswer'>;

export type PortalVerifyAnswer = Schema<'PortalVerifyAnswer'>;

export type GuardianLink = Schema<'GuardianLink'>;

export type Guardian = Schema<'Guardian'>;

export type GuardianInput = Schema<'GuardianInput'>;

export type ActivationCode = Schema<'ActivationCode'>;

// The portal has its own session: a 401 there sends the guardian to the portal's sign-in
// (ortu/PortalApp.tsx), never to the staff sign-in.
const own = { ignoreUnauthorized: true } as const;

export const portalApi = {
  requestCode: (phone: string) => api.post<PortalCodeAnswer>('/portal/auth/request-code', { phone }, own),
  verify: (phone: string, code: string) => api.post<PortalVerifyAnswer>('/portal/auth/verify', { phone, code }, own),
  me: (signal?: AbortSignal) => apiRequest<PortalGuardian>('/portal/me', { signal, ...own }),
  logout: () => api.post<void>('/portal/auth/logout', undefined, own),
  logoutAll: () => api.post<void>('/portal/auth/logout-all', undefined, own),
  withdraw: () => api.post<void>('/portal/consent/withdraw', undefined, own),
};

export const guardiansApi = {
  list: (query: { student_id?: number; status?: 'pending' }, signal?: AbortSignal) =>
    api.get<{ data: Guardian[] }>('/guardians', query, signal),
  add: (input: GuardianInput) => api.post<Guardian>('/guardians', input),
  activationCode: (id: number) => api.post<ActivationCode>(`/guardians/${id}/activation-code`),
  revokeSessions: (id: number) => api.post<void>(`/guardians/${id}/revoke-sessions`),
};

export type PortalChild = Schema<'PortalChild'>;

export type PortalViolation = Schema<'PortalViolation'>;

export type PortalLetter = Schema<'PortalLetter'>;

export type AttendanceCounts = Schema<'AttendanceCounts'>;

export type PortalChildDetail = Schema<'PortalChildDetail'>;

export type PortalAchievement = Schema<'PortalAchievement'>;

export type PortalAttendanceDay = Schema<'PortalAttendanceDay'>;

export type PortalMessage = Schema<'PortalMessage'>;

const get = <T>(path: string, signal?: AbortSignal, query?: Record<string, string>) =>
  apiRequest<T>(path, { signal, query, ...own });

export const portalViewsApi = {
  children: (signal?: AbortSignal) => get<{ data: PortalChild[] }>('/portal/children', signal),
  child: (id: number, signal?: AbortSignal) => get<PortalChildDetail>(`/portal/children/${id}`, signal),
  attendance: (id: number, month: string, signal?: AbortSignal) =>
    get<{ data: PortalAttendanceDay[] }>(`/portal/children/${id}/attendance`, signal, { month }),
  messages: (signal?: AbortSignal) => get<{ data: PortalMessage[] }>('/portal/messages', signal),
  acknowledge: (letterId: number) =>
    api.post<{ letter_id: number; acknowledged_at: string }>(`/portal/letters/${letterId}/acknowledge`, undefined, own),
  letterPdfUrl: (letterId: number) => `/api/v1/portal/letters/${letterId}/pdf`,
};

export type Excuse = Schema<'Excuse'>;

export type ExcuseInput = Schema<'ExcuseInput'>;

export const excusesApi = {
  forChild: (childId: number, signal?: AbortSignal) => get<{ data: Excuse[] }>(`/portal/children/${childId}/excuses`, signal),
  submit: (childId: number, input: ExcuseInput, photos: File[]) => {
    if (photos.length === 0) return api.post<Excuse>(`/portal/children/${childId}/excuses`, input, own);
    const body = new FormData();
    body.append('data', JSON.stringify(input));
    for (const p of photos) body.append('photos', p);
    return api.post<Excuse>(`/portal/children/${childId}/excuses`, body, own);
  },
  pending: (classId: number | undefined, signal?: AbortSignal) =>
    api.get<{ data: Excuse[] }>('/excuses', { status: 'pending', class_id: classId || undefined }, signal),
  approve: (id: number) => api.post<{ excuse: Excuse }>(`/excuses/${id}/approve`),
  refuse: (id: number, reason: string) => api.post<Excuse>(`/excuses/${id}/refuse`, { reason }),
  photoUrl: (id: number, n: number, thumbnail = false) => `/api/v1/excuses/${id}/photos/${n}${thumbnail ? '?thumbnail=1' : ''}`,
};

export type PortalRegistration = Schema<'PortalRegistration'>;

export type CodeRequestRow = Schema<'PortalCodeRequestRow'>;

export type SessionRow = Schema<'PortalSessionRow'>;

export type RegistrationRow = Schema<'PortalRegistrationRow'>;

export const registrationApi = {
  register: (input: PortalRegistration) => api.post<{ status: 'verified' | 'pending' }>('/portal/register', input, own),
  verify: (guardianId: number, studentId: number, approve: boolean, reason = '') =>
    api.post<void>(`/guardians/${guardianId}/verify`, { student_id: studentId, approve, reason }),
  codeRequests: (signal?: AbortSignal) => api.get<{ data: CodeRequestRow[] }>('/guardians/code-requests', undefined, signal),
  sessions: (signal?: AbortSignal) => api.get<{ data: SessionRow[] }>('/guardians/sessions', undefined, signal),
  registrations: (signal?: AbortSignal) => api.get<{ data: RegistrationRow[] }>('/guardians/registrations', undefined, signal),
};

export const studentPortalApi = {
  config: (signal?: AbortSignal) => get<PortalSettings>('/portal/config', signal),
  signIn: (nisn: string, code: string) => api.post<PortalVerifyAnswer>('/portal/auth/student', { nisn, code }, own),
  settings: (signal?: AbortSignal) => api.get<PortalSettings>('/settings/portal', undefined, signal),
  saveSettings: (s: PortalSettings) => api.put<PortalSettings>('/settings/portal', s),
  printCode: (studentId: number) => api.post<ActivationCode>(`/students/${studentId}/portal-code`),
};

export const prefsApi = {
  get: (signal?: AbortSignal) => get<NotificationPrefs>('/portal/preferences', signal),
  save: (preferences: Partial<Record<NotifyKind, NotifyMode>>) =>
    apiRequest<NotificationPrefs>('/portal/preferences', { method: 'PUT', body: { preferences }, ...own }),
};

export const pushApi = {
  key: (signal?: AbortSignal) => get<{ public_key: string }>('/portal/push/key', signal),
  subscribe: (sub: PushSubscriptionJSON) => api.post<void>('/portal/push-subscriptions', sub, own),
};
