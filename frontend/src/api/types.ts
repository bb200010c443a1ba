/** Wire types shared by several features (see server/internal/api/openapi/*.json). */

export const ROLES = ['admin', 'bk', 'wali_kelas', 'staff', 'other', 'kepala_sekolah', 'waka', 'ketua_tim'] as const;
export type Role = (typeof ROLES)[number];

/** A permission name such as "users.view" (the catalogue lives on the server). */
export type PermissionName = string;

export interface User {
  id: number;
  username: string;
  name: string;
  role: Role;
  email: string;
  phone: string;
  active: boolean;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Me {
  user: User;
  permissions: PermissionName[];
}

export interface LoginResponse extends Me {
  token: string;
  expires_at: string;
}

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export interface List<T> {
  data: T[];
}
