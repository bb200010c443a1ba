import { api } from '@/api/client';
import type { List, PermissionName, Role } from '@/api/types';

/** One entry of the server's permission catalogue. */
export interface Permission {
  name: PermissionName;
  group: string;
  label: string;
  label_en: string;
  default_roles: Role[];
}

export interface RoleInfo {
  role: Role;
  label: string;
  /** admin: always every permission, not editable. */
  locked: boolean;
  permissions: PermissionName[];
}

export const rolesApi = {
  permissions: (signal?: AbortSignal) => api.get<List<Permission>>('/permissions', undefined, signal),
  roles: (signal?: AbortSignal) => api.get<List<RoleInfo>>('/roles', undefined, signal),
  setPermissions: (role: Role, permissions: PermissionName[]) => api.put<RoleInfo>(`/roles/${role}/permissions`, { permissions }),
};
