import { api } from '@/api/client';
import type { Page } from '@/api/types';
import type { Schema } from '@/api';

/** One audit log line (server/internal/audit Entry). */
export type AuditEntry = Schema<'AuditEntry'>;

export interface AuditListParams {
  entity?: string;
  page: number;
  per_page: number;
}

export const auditApi = {
  list: (p: AuditListParams, signal?: AbortSignal) => api.get<Page<AuditEntry>>('/audit-log', { ...p }, signal),
};
