import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Source } from '@/features/violation-source/source';
import { earlyWarningsApi, type EarlyWarningKind } from './api';

/** Query keys of the early warnings. */
export const earlyWarningKeys = {
  all: ['early-warnings'] as const,
  list: (source: Source | null, kind: EarlyWarningKind | null, classId: number | null, page: number) =>
    ['early-warnings', source, kind, classId, page] as const,
};

/** Waits while the source is not known yet (see useScreenSource). */
export function useEarlyWarnings(source: Source | null, kind: EarlyWarningKind | null, classId: number | null, page: number) {
  return useQuery({
    queryKey: earlyWarningKeys.list(source, kind, classId, page),
    queryFn: ({ signal }) => earlyWarningsApi.list({ source: source!, kind, classId, page }, signal),
    enabled: source !== null,
    placeholderData: keepPreviousData,
  });
}
