import { api } from '@/api/client';
import type { LoginResponse, Me } from '@/api/types';
import type { RequestBody } from '@/api';

export type ChangePasswordInput = RequestBody<'/auth/password', 'put'>;

export const authApi = {
  /** 401 here means wrong credentials, shown on the form: no redirect. */
  login: (username: string, password: string) =>
    api.post<LoginResponse>('/auth/login', { username, password }, { ignoreUnauthorized: true }),
  logout: () => api.post<void>('/auth/logout', undefined, { ignoreUnauthorized: true }),
  me: (signal?: AbortSignal) => api.get<Me>('/auth/me', undefined, signal),
  changePassword: (input: ChangePasswordInput) => api.put<void>('/auth/password', input),
};
