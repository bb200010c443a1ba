import type { Schema } from './schema';

/** Wire types shared by several features (see server/internal/api/openapi/*.json). */
export const ROLES = ['admin', 'bk', 'wali_kelas', 'staff', 'other', 'kepala_sekolah', 'waka', 'ketua_tim'] as const;
export type Role = (typeof ROLES)[number];

/** A permission name such as "users.view" (the catalogue lives on the server). */
export type PermissionName = string;

export type User = Schema<'User'>;

export type Me = Schema<'Me'>;

export type LoginResponse = Schema<'LoginResponse'>;

export type PageMeta = Schema<'PageMeta'>;

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export interface List<T> {
  data: T[];
}
