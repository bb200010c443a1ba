import { api } from '@/api/client';
import type { Schema } from '@/api';
import type { List, PageMeta } from '@/api/types';
import { oneOf, period, type FiltersOf } from '@/lib/urlFilters';

/** Wire types of the face-ID review and settings (shared/api/face.go). */

export const OUTCOMES = ['matched', 'uncertain', 'unknown', 'liveness_failed', 'not_enrolled_model'] as const;
export type ScanOutcome = (typeof OUTCOMES)[number];

export const CHALLENGES = ['blink', 'turn_left', 'turn_right'] as const;
export type ChallengeKind = (typeof CHALLENGES)[number];

/** What a scan did to the first lesson hour: H, T, kept (already filled) or none. */
export type ScanAttendance = 'H' | 'T' | 'kept' | 'none' | '';

/** One row of GET /face/scans and GET /face/confirmations. */
export type FaceScan = Schema<'FaceScan'>;

/** GET /face/scans: newest first, `total` for the pager. */
export interface FaceScanPage {
  data: FaceScan[];
  total?: number;
  /** The house shape, should the server send it. */
  meta?: { page: number; per_page: number; total: number; last_page: number };
}

export type FaceScanResolution = Schema<'FaceScanResolution'>;

/** GET/PUT /settings/face. */
export type FaceSettings = Schema<'FaceSettings'>;

/** One row of GET /settings/kiosks. */
export type Kiosk = Schema<'Kiosk'>;

/** POST /settings/kiosks: the token is in this answer only. */
export type KioskCreated = Schema<'KioskCreated'>;

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

/** The review page's tabs: the confirmation queue, or the scan log. */
export const TABS = ['confirmations', 'log'] as const;
export type ReviewTab = (typeof TABS)[number];

/** The page's state as kept in its URL (/wajah?tab=log&outcome=…&from=…&to=…&page=…); a period is both days or none. */
export const reviewFilters = {
  tab: oneOf('tab', TABS, 'confirmations'),
  outcome: oneOf('outcome', OUTCOMES),
  period: period(),
};

export type ReviewFilters = FiltersOf<typeof reviewFilters>;

/** GET /face/scans's query (empty values are left out by the API client). */
export function scanQuery(f: ReviewFilters, perPage: number): Record<string, string | number> {
  const q: Record<string, string | number> = { page: f.page, per_page: perPage };
  if (f.outcome) q.outcome = f.outcome;
  if (f.period.from) q.from = f.period.from;
  if (f.period.to) q.to = f.period.to;
  return q;
}

/** The pager's figures from the log's answer ({data,total}, or the house's {data,meta}). */
export function pageMeta(res: FaceScanPage | undefined, page: number, perPage: number): PageMeta | undefined {
  if (!res) return undefined;
  if (res.meta) return res.meta;
  const total = res.total ?? res.data.length;
  return { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}
