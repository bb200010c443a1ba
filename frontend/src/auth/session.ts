import { useCallback } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Me, PermissionName } from '@/api/types';
import { allowed } from '@/app/nav';
import type { RoutePermission } from '@/app/feature';
import { authApi } from './api';

export const meQueryKey = ['auth', 'me'] as const;

/** The signed-in user and permissions from GET /auth/me. */
export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => authApi.me(signal),
    staleTime: 60_000,
    // Sign-in state is decided here; a 401 must not become an error page.
    throwOnError: false,
    retry: (count, err) => (err as { code?: string }).code === 'network' && count < 1,
  });
}

/** Refetches /auth/me so permission changes apply without signing out. */
export function refreshMe(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: meQueryKey });
}

export interface Session {
  me: Me | undefined;
  permissions: readonly PermissionName[];
  can: (p: RoutePermission) => boolean;
}

const none: readonly PermissionName[] = [];

/** Permission checks for screens: `const { can } = useSession(); can('users.manage')`. */
export function useSession(): Session {
  const me = useMe().data;
  const permissions = me?.permissions ?? none;
  const can = useCallback((p: RoutePermission) => allowed(p, permissions), [permissions]);
  return { me, permissions, can };
}
