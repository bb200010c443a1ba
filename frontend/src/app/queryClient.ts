import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isUnreachable } from '@/api/errors';
import { setServerReachable } from './connectivity';

function track(err: unknown) {
  if (isUnreachable(err)) setServerReachable(false);
}

/**
 * Query defaults for every feature:
 * - a 403 or 404 while loading a page throws to the page's error boundary (403/404 page);
 * - an unreachable server throws too when there is nothing to show yet, else the shell's
 *   banner says so and the stale data stays;
 * - only network failures are retried; a 4xx answer will not change by asking again.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: track, onSuccess: () => setServerReachable(true) }),
    mutationCache: new MutationCache({ onError: track, onSuccess: () => setServerReachable(true) }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: true,
        retry: (count, err) => isUnreachable(err) && count < 2,
        retryDelay: (n) => Math.min(1000 * 2 ** n, 8000),
        throwOnError: (err, query) =>
          isApiError(err) &&
          (err.status === 403 || err.status === 404 || (isUnreachable(err) && query.state.data === undefined)),
      },
      mutations: { retry: false },
    },
  });
}
