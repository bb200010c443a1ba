import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { reportsApi } from './api';

export const reportKeys = {
  all: ['reports'] as const,
  recap: (query: Record<string, string> | null, offset: number, limit: number) => ['reports', 'recap', query, offset, limit] as const,
};

export function useRecap(query: Record<string, string> | null, offset: number, limit: number) {
  return useQuery({
    queryKey: reportKeys.recap(query, offset, limit),
    queryFn: ({ signal }) => reportsApi.recap(query!, offset, limit, signal),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}
