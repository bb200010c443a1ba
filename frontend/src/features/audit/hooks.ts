import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditApi, type AuditListParams } from './api';

export const auditKeys = {
  all: ['audit'] as const,
  list: (p: AuditListParams) => ['audit', 'list', p] as const,
};

/** A page of the audit log, newest first; always refetched on opening (it is a log). */
export function useAuditLog(params: AuditListParams) {
  return useQuery({
    queryKey: auditKeys.list(params),
    queryFn: ({ signal }) => auditApi.list(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}
