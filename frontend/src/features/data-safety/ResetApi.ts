import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Schema } from '@/api';

/** One data set as GET /admin/reset answers it (labels in the UI language). */
export type ResetSet = Schema<'ResetSet'>;
export type ResetSetID = Schema<'ResetSetID'>;

/** The newest finished backup (the backup feature's record). */
export type ResetLastBackup = NonNullable<Schema<'ResetInfo'>['last_backup']>;

export type ResetInfo = Schema<'ResetInfo'>;

export type ResetRequest = Schema<'ResetRequest'>;

export type ResetResult = Schema<'ResetResult'>;

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
