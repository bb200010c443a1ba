import { api } from '@/api/client';
import type { Page, Role, User } from '@/api/types';

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
}

export type UserUpdateInput = Partial<Omit<UserCreateInput, 'password'>> & { active?: boolean };

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
  list: (p: UserListParams, signal?: AbortSignal) => api.get<Page<User>>('/users', { ...p }, signal),
  create: (input: UserCreateInput) => api.post<User>('/users', input),
  update: (id: number, input: UserUpdateInput) => api.patch<User>(`/users/${id}`, input),
  remove: (id: number) => api.delete<DeleteResult>(`/users/${id}`),
  resetPassword: (id: number, input: ResetPasswordInput) => api.post<void>(`/users/${id}/reset-password`, input),
};
