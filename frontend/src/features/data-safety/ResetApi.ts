import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';

/** One data set as GET /admin/reset answers it (labels in the UI language). */
export interface ResetSet {
  id: string;
  label: string;
  description: string;
  /** table name -> rows resetting this set removes now */
  rows: Record<string, number>;
  total: number;
  /** sets that must be reset with this one */
  requires: string[];
}

/** The newest finished backup (the backup feature's record). */
export interface ResetLastBackup {
  id: number;
  started_at: string;
  finished_at: string | null;
  filename: string;
  size_bytes: number;
  created_by_name: string;
}

export interface ResetInfo {
  sets: ResetSet[];
  school_name: string;
  last_backup: ResetLastBackup | null;
}

export interface ResetRequest {
  sets: string[];
  school_name: string;
  password: string;
}

export interface ResetResult {
  sets: string[];
  /** table name -> rows removed */
  removed: Record<string, number>;
  /** violation_categories | sp_thresholds | handling_types | system_types */
  recreated: string[];
  audit_id: number;
}

export const resetKeys = { info: ['data-safety', 'reset'] as const };

export function useResetInfo() {
  return useQuery({
    queryKey: resetKeys.info,
    queryFn: ({ signal }) => api.get<ResetInfo>('/admin/reset', undefined, signal),
    staleTime: 0,
  });
}

/** POST /admin/reset; afterwards every cached query may be stale (whole tables are gone). */
export function useReset() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ResetRequest) => api.post<ResetResult>('/admin/reset', input),
    onSuccess: () => qc.invalidateQueries(),
  });
}
