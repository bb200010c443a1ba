import { api } from '@/api/client';
import type { List } from '@/api/types';

/** Wire types of the face-ID review and settings (shared/api/face.go). */

export const OUTCOMES = ['matched', 'uncertain', 'unknown', 'liveness_failed', 'not_enrolled_model'] as const;
export type ScanOutcome = (typeof OUTCOMES)[number];

export const CHALLENGES = ['blink', 'turn_left', 'turn_right'] as const;
export type ChallengeKind = (typeof CHALLENGES)[number];

/** What a scan did to the first lesson hour: H, T, kept (already filled) or none. */
export type ScanAttendance = 'H' | 'T' | 'kept' | 'none' | '';

/** One row of GET /face/scans and GET /face/confirmations. */
export interface FaceScan {
  id: number;
  scanned_at: string;
  kiosk_name: string;
  outcome: ScanOutcome;
  student_id: number | null;
  student_name: string;
  class_name: string;
  /** Cosine similarity of the best candidate, 0–1. */
  score: number | null;
  runner_up_id: number | null;
  runner_up_name: string;
  runner_up_score: number | null;
  /** Best − runner-up. */
  margin: number | null;
  challenge_kind: ChallengeKind | '';
  challenge_passed: boolean;
  attendance: ScanAttendance;
  /** 'confirm' | 'reject' once a teacher resolved an uncertain scan; null before. */
  resolution: string | null;
  resolved_student_id: number | null;
  resolved_student_name: string;
  resolved_by_name: string;
  resolved_at: string | null;
}

/** GET /face/scans: newest first, `total` for the pager. */
export interface FaceScanPage {
  data: FaceScan[];
  total?: number;
  /** The house shape, should the server send it. */
  meta?: { page: number; per_page: number; total: number; last_page: number };
}

export interface FaceScanResolution {
  action: 'confirm' | 'reject';
  student_id?: number;
}

/** GET/PUT /settings/face. */
export interface FaceSettings {
  /** HH:MM, Asia/Jakarta. */
  school_start: string;
  late_grace_minutes: number;
  threshold: number;
  margin: number;
  retention_days: number;
  challenges: ChallengeKind[];
  updated_at?: string | null;
}

/** One row of GET /settings/kiosks. */
export interface Kiosk {
  id: number;
  name: string;
  token_hint: string;
  created_by_name: string;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
  /** Times two different students were matched less than 1.5 s apart; the last time. */
  alarm_count: number;
  alarm_at: string | null;
}

/** POST /settings/kiosks: the token is in this answer only. */
export interface KioskCreated extends Kiosk {
  token: string;
}

export const faceScansApi = {
  scans: (query: Record<string, string | number>, signal?: AbortSignal) => api.get<FaceScanPage>('/face/scans', query, signal),
  confirmations: (signal?: AbortSignal) => api.get<List<FaceScan>>('/face/confirmations', undefined, signal),
  resolve: (id: number, r: FaceScanResolution) => api.post<FaceScan>(`/face/scans/${id}/resolve`, r),
};

export const faceSettingsApi = {
  settings: (signal?: AbortSignal) => api.get<FaceSettings>('/settings/face', undefined, signal),
  save: (s: FaceSettings) => api.put<FaceSettings>('/settings/face', s),
  kiosks: (signal?: AbortSignal) => api.get<List<Kiosk>>('/settings/kiosks', undefined, signal),
  createKiosk: (name: string) => api.post<KioskCreated>('/settings/kiosks', { name }),
  revokeKiosk: (id: number) => api.delete<void>(`/settings/kiosks/${id}`),
};
