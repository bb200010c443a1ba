import { api } from '@/api/client';
import type { Page } from '@/api/types';

/** One audit log line (server/internal/audit Entry). */
export interface AuditEntry {
  id: number;
  /** RFC 3339 instant. */
  at: string;
  /** null for the system (scheduled sync, demo load). */
  actor_id: number | null;
  /** The actor's username, "sistem (jadwal)", … or '' when unknown. */
  actor_name: string;
  /** e.g. "user.create"; see actions.ts for the known codes. */
  action: string;
  entity: string;
  /** '' when the change is not about one record (thresholds, imports). */
  entity_id: string;
  details: unknown;
  address: string;
}

export interface AuditListParams {
  entity?: string;
  page: number;
  per_page: number;
}

export const auditApi = {
  list: (p: AuditListParams, signal?: AbortSignal) => api.get<Page<AuditEntry>>('/audit-log', { ...p }, signal),
};
