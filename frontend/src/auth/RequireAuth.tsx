import { Navigate, Outlet, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { isApiError, isUnreachable } from '@/api/errors';
import { PageLoader } from '@/components/PageLoader';
import { ServerUnreachablePage, UnexpectedErrorPage } from '@/components/errors';
import { meQueryKey, useMe } from './session';

/** Builds /sign-in?next=<where the user was going>. */
export function signInPath(next?: string): string {
  return next && next !== '/' ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in';
}

/** Only relative in-app paths are followed after sign-in (no open redirect). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

/** Lets signed-in users through; sends others to sign-in. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  const qc = useQueryClient();
  if (me.isPending) return <PageLoader fullScreen />;
  if (me.isError && !me.data) {
    if (isApiError(me.error) && me.error.status === 401) {
      return <Navigate to={signInPath(location.pathname + location.search)} replace />;
    }
    const retry = () => void qc.resetQueries({ queryKey: meQueryKey });
    if (isUnreachable(me.error)) return <ServerUnreachablePage onRetry={retry} />;
    return <UnexpectedErrorPage message={isApiError(me.error) ? me.error.message : undefined} onRetry={retry} />;
  }
  return <Outlet />;
}
