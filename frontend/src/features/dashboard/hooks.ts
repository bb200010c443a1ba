import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Source } from '@/features/violation-source/source';
import type { Dashboard } from './types';

/**
 * The dashboard's figures. The calendar's queries live in calendarQueries.ts: the page and the
 * lazily loaded figures share no module, so the page stays its own small chunk.
 */
export function useDashboard(enabled: boolean, source: Source | null) {
  return useQuery({
    queryKey: ['dashboard', 'figures', source],
    queryFn: ({ signal }) => api.get<Dashboard>('/dashboard', { source }, signal),
    enabled: enabled && source !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
