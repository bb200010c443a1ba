import { api } from '@/api/client';
import type { List, PermissionName, Role } from '@/api/types';
import type { Schema } from '@/api';

/** One entry of the server's permission catalogue. */
export type Permission = Schema<'Permission'>;

export type RoleInfo = Schema<'RoleInfo'>;

export const rolesApi = {
  permissions: (signal?: AbortSignal) => api.get<List<Permission>>('/permissions', undefined, signal),
  roles: (signal?: AbortSignal) => api.get<List<RoleInfo>>('/roles', undefined, signal),
  setPermissions: (role: Role, permissions: PermissionName[]) => api.put<RoleInfo>(`/roles/${role}/permissions`, { permissions }),
};
