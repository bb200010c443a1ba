import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionName, Role } from '@/api/types';
import { refreshMe } from '@/auth/session';
import { rolesApi, type RoleInfo } from './api';
import type { List } from '@/api/types';

export const rolesKeys = {
  permissions: ['permissions'] as const,
  roles: ['roles'] as const,
};

export function usePermissionCatalogue() {
  return useQuery({ queryKey: rolesKeys.permissions, queryFn: ({ signal }) => rolesApi.permissions(signal), staleTime: Infinity });
}

export function useRoles() {
  return useQuery({ queryKey: rolesKeys.roles, queryFn: ({ signal }) => rolesApi.roles(signal) });
}

/** Saves one role; the signed-in user's own permissions are refetched so changes apply at once. */
export function useSaveRolePermissions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ role, permissions }: { role: Role; permissions: PermissionName[] }) => rolesApi.setPermissions(role, permissions),
    onSuccess: async (saved) => {
      qc.setQueryData<List<RoleInfo>>(rolesKeys.roles, (old) =>
        old ? { data: old.data.map((r) => (r.role === saved.role ? { ...r, permissions: saved.permissions } : r)) } : old,
      );
      await Promise.all([refreshMe(qc), qc.invalidateQueries({ queryKey: rolesKeys.roles })]);
    },
  });
}
