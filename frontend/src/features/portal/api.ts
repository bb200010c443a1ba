import { api, apiRequest } from '@/api/client';

/** Wire types of the family portal (shared/api/portal.go). */

export const RELATIONS = ['ayah', 'ibu', 'wali', 'lainnya'] as const;
export type Relation = (typeof RELATIONS)[number];

export interface PortalGuardian {
  id: number;
  name: string;
  phone: string;
  consent_at: string | null;
  consent_channel: '' | 'whatsapp_code' | 'activation_code';
  /** Set when a student signed in: their own record only. */
  student_id?: number;
}

export interface PortalSettings {
  students: boolean;
  hide_violations?: boolean;
  hide_letters?: boolean;
  hide_attendance?: boolean;
  hide_messages?: boolean;
  hide_achievements?: boolean;
  show_recorder?: boolean;
  /** HH:MM (Jakarta) of the guardians' daily digest; empty: 18:00. */
  digest_at?: string;
  /** Send "belum hadir" to guardians who ask for it, at absent_notice_at (empty: 08:00). */
  absent_notice?: boolean;
  absent_notice_at?: string;
}

export const NOTIFY_KINDS = ['violation', 'attendance', 'warning_letter', 'summons', 'achievement', 'excuse', 'absent_notice'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
export type NotifyMode = 'immediate' | 'digest' | 'off';

export interface NotificationPrefs {
  preferences: { kind: NotifyKind; mode: NotifyMode; modes: NotifyMode[] }[];
  digest_at: string;
  absent_notice: boolean;
}

export interface PortalCodeAnswer {
  sent: boolean;
  expires_at: string;
}

export interface PortalVerifyAnswer {
  token: string;
  guardian: PortalGuardian;
}

export interface GuardianLink {
  student_id: number;
  student_name: string;
  class_name: string;
  relation: Relation;
  status: 'verified' | 'pending';
  source: 'sync' | 'staff' | 'self';
  created_at: string;
}

export interface Guardian {
  id: number;
  name: string;
  phone: string;
  consent_at: string | null;
  consent_channel: string;
  withdrawn_at: string | null;
  sessions: number;
  last_seen_at: string | null;
  students: GuardianLink[];
}

export interface GuardianInput {
  student_id: number;
  name: string;
  phone: string;
  relation: Relation;
}

export interface ActivationCode {
  guardian_id: number;
  phone: string;
  code: string;
  expires_at: string;
}

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

export interface PortalChild {
  id: number;
  name: string;
  class_name: string;
  relation: Relation;
  points: number;
}

export interface PortalViolation {
  id: number;
  date: string;
  type: string;
  points: number;
  sanction: string;
  attendance: boolean;
  /** Only when the school shows who recorded it. */
  recorder?: string;
}

export interface PortalLetter {
  id: number;
  name: string;
  level: number;
  number: string | null;
  issued_at: string;
  sent_at: string | null;
  acknowledged_at: string | null;
}

export interface AttendanceCounts {
  h: number;
  s: number;
  i: number;
  a: number;
  t: number;
}

export interface PortalChildDetail extends PortalChild {
  standing: { total: number; level: number; level_name: string; next_level_name: string; points_to_next: number | null };
  thresholds: { level: number; name: string; min_points: number }[];
  violations: PortalViolation[];
  letters: PortalLetter[];
  attendance: AttendanceCounts;
  /** Verified achievements, newest first. */
  achievements: PortalAchievement[];
  shown: { violations: boolean; letters: boolean; attendance: boolean; achievements: boolean };
}

export interface PortalAchievement {
  id: number;
  date: string;
  type: string;
  level: 'sekolah' | 'kabupaten' | 'provinsi' | 'nasional' | 'internasional';
  points: number;
}

export interface PortalAttendanceDay {
  date: string;
  counts: AttendanceCounts;
  hours: { hour: number; status: 'H' | 'S' | 'I' | 'A' | 'T' }[];
}

export interface PortalMessage {
  id: number;
  student_name: string;
  event: string;
  body: string;
  sent_at: string | null;
}

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

export interface Excuse {
  id: number;
  student_id: number;
  student_name: string;
  class_name: string;
  guardian_name: string;
  kind: 'sakit' | 'izin';
  from: string;
  to: string;
  lesson_hours: number[] | null;
  reason: string;
  status: 'pending' | 'approved' | 'refused';
  decided_by_name: string;
  decided_at: string | null;
  refusal_reason: string;
  created_at: string;
  photos: number;
}

export interface ExcuseInput {
  kind: 'sakit' | 'izin';
  from: string;
  to: string;
  lesson_hours?: number[];
  reason: string;
}

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

export interface PortalRegistration {
  nisn: string;
  date_of_birth: string;
  phone: string;
  name: string;
  relationship: Relation;
}

export interface CodeRequestRow {
  id: number;
  phone: string;
  address: string;
  kind: 'whatsapp' | 'activation';
  guardian_name: string;
  tries: number;
  used: boolean;
  created_at: string;
}

export interface SessionRow {
  guardian_id: number;
  guardian_name: string;
  created_at: string;
  last_seen_at: string;
  user_agent: string;
  address: string;
}

export interface RegistrationRow {
  id: number;
  nisn: string;
  phone: string;
  name: string;
  relation: Relation;
  student_name: string;
  outcome: 'verified' | 'pending' | 'no_match' | 'approved' | 'refused';
  reason: string;
  created_at: string;
}

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
