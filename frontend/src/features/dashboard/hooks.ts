import { useQuery } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Dashboard } from './types';

/**
 * The dashboard's figures. The calendar's queries live in calendarQueries.ts: the page and the
 * lazily loaded figures share no module, so the page stays its own small chunk.
 */
export function useDashboard(enabled = true) {
  return useQuery({
    queryKey: ['dashboard', 'figures'],
    queryFn: ({ signal }) => api.get<Dashboard>('/dashboard', undefined, signal),
    enabled,
    staleTime: 30_000,
  });
}
