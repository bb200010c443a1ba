import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { earlyWarningsApi, type EarlyWarningKind } from './api';

/** Query keys of the early warnings. */
export const earlyWarningKeys = {
  all: ['early-warnings'] as const,
  list: (kind: EarlyWarningKind | null, classId: number | null, page: number) => ['early-warnings', kind, classId, page] as const,
};

export function useEarlyWarnings(kind: EarlyWarningKind | null, classId: number | null, page: number) {
  return useQuery({
    queryKey: earlyWarningKeys.list(kind, classId, page),
    queryFn: ({ signal }) => earlyWarningsApi.list({ kind, classId, page }, signal),
    placeholderData: keepPreviousData,
  });
}
