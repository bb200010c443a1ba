import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '@/auth/session';
import { sourceApi, type SourcePreference } from './api';
import { effectiveSource, parseSource, type Source } from './source';

export const sourceKeys = {
  preference: (userId: number) => ['violation-source', userId] as const,
};

/** The signed-in user's remembered source (one per user, kept by the server on every device). */
export function useSourcePreference() {
  const { me } = useSession();
  const userId = me?.user.id ?? 0;
  return useQuery({
    queryKey: sourceKeys.preference(userId),
    queryFn: ({ signal }) => sourceApi.get(signal),
    enabled: userId > 0,
    staleTime: 5 * 60_000,
    // A screen without the preference still works (it shows everything).
    throwOnError: false,
    retry: false,
  });
}

/**
 * The source of a screen whose URL holds `urlValue` (its `source` parameter), and `remember`,
 * to call when the user picks one on the control: the choice is kept for them (optimistically,
 * so every screen opened next shows it at once).
 */
export function useScreenSource(urlValue: string | null): { source: Source | null; remember: (s: Source) => void } {
  const { me } = useSession();
  const qc = useQueryClient();
  const pref = useSourcePreference();
  const key = sourceKeys.preference(me?.user.id ?? 0);
  const save = useMutation({
    mutationFn: (s: Source) => sourceApi.save(s),
    onMutate: (s) => {
      const before = qc.getQueryData<SourcePreference>(key);
      if (before) qc.setQueryData<SourcePreference>(key, { ...before, source: s, saved: true });
    },
    onSuccess: (saved) => qc.setQueryData(key, saved),
  });
  return {
    source: effectiveSource(parseSource(urlValue), pref.data?.source, pref.isError),
    remember: (s) => save.mutate(s),
  };
}
