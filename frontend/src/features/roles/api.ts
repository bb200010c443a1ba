import { api } from '@/api/client';
import type { List, PermissionName, Role } from '@/api/types';

/** One entry of the server's permission catalogue. */
export interface Permission {
  name: PermissionName;
  group: string;
  label: string;
  label_en: string;
  default_roles: Role[];
  /** Lets a role manage users or access rights: only an admin grants or withdraws it. */
  sensitive: boolean;
  /** For a sensitive permission: what it allows, in Indonesian and English. */
  allows?: string;
  allows_en?: string;
  /** Administrative data of the whole school: not limited to a homeroom teacher's class. */
  school_wide: boolean;
  /** The administrator's alone (resetting, backing up): no other role can be given it. */
  admin_only: boolean;
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
