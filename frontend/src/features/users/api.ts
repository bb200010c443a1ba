import { api } from '@/api/client';
import type { Page, Role } from '@/api/types';
import type { RequestBody, ResponseBody, Schema } from '@/api';

/** A user as the users screens show them: with the class a homeroom teacher looks after. */
export type UserRow = Schema<'UserWithClass'>;

export interface UserListParams {
  q?: string;
  role?: Role | '';
  active?: 'true' | 'false' | '';
  page: number;
  per_page: number;
}

export type UserCreateInput = Schema<'UserCreate'>;

/**
 * release_class: a homeroom teacher who stops being one (another role, deactivated) leaves their
 * class without a homeroom teacher; without it the server refuses such a change, naming the class.
 */
export type UserUpdateInput = Partial<Omit<UserCreateInput, 'password'>> & { active?: boolean; release_class?: boolean };

export type ResetPasswordInput = RequestBody<'/users/{id}/reset-password', 'post'>;

/** DELETE answers which of the two happened: users who recorded data are only deactivated. */
export type DeleteResult = ResponseBody<'/users/{id}', 'delete'>;

export const usersApi = {
  list: (p: UserListParams, signal?: AbortSignal) => api.get<Page<UserRow>>('/users', { ...p }, signal),
  create: (input: UserCreateInput) => api.post<UserRow>('/users', input),
  update: (id: number, input: UserUpdateInput) => api.patch<UserRow>(`/users/${id}`, input),
  remove: (id: number, releaseClass = false) => api.delete<DeleteResult>(`/users/${id}${releaseClass ? '?release_class=true' : ''}`),
  resetPassword: (id: number, input: ResetPasswordInput) => api.post<void>(`/users/${id}/reset-password`, input),
};
