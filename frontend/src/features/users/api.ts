import { api } from '@/api/client';
import type { Page, Role, User } from '@/api/types';

/** A user as the users screens show them: with the class a homeroom teacher looks after. */
export interface UserRow extends User {
  homeroom_class: { id: number; name: string } | null;
  /** 18 digits or "": printed under a homeroom teacher's signature on letters. */
  nip?: string;
}

export interface UserListParams {
  q?: string;
  role?: Role | '';
  active?: 'true' | 'false' | '';
  page: number;
  per_page: number;
}

export interface UserCreateInput {
  username: string;
  name: string;
  role: Role;
  email: string;
  phone: string;
  password: string;
  nip?: string;
}

/**
 * release_class: a homeroom teacher who stops being one (another role, deactivated) leaves their
 * class without a homeroom teacher; without it the server refuses such a change, naming the class.
 */
export type UserUpdateInput = Partial<Omit<UserCreateInput, 'password'>> & { active?: boolean; release_class?: boolean };

export interface ResetPasswordInput {
  password: string;
  password_confirmation: string;
}

/** DELETE answers which of the two happened: users who recorded data are only deactivated. */
export interface DeleteResult {
  deleted: boolean;
  deactivated: boolean;
}

export const usersApi = {
  list: (p: UserListParams, signal?: AbortSignal) => api.get<Page<UserRow>>('/users', { ...p }, signal),
  create: (input: UserCreateInput) => api.post<UserRow>('/users', input),
  update: (id: number, input: UserUpdateInput) => api.patch<UserRow>(`/users/${id}`, input),
  remove: (id: number, releaseClass = false) => api.delete<DeleteResult>(`/users/${id}${releaseClass ? '?release_class=true' : ''}`),
  resetPassword: (id: number, input: ResetPasswordInput) => api.post<void>(`/users/${id}/reset-password`, input),
};
