import { api } from '@/api/client';
import type { Source } from './source';
import type { Schema } from '@/api';

/** GET/PUT /preferences/violation-source (shared/api/followup.go). */
export type SourcePreference = Schema<'ViolationSourcePreference'>;

export const sourceApi = {
  get: (signal?: AbortSignal) => api.get<SourcePreference>('/preferences/violation-source', undefined, signal),
  /** null forgets the choice (back to the role's default). */
  save: (source: Source | null) => api.put<SourcePreference>('/preferences/violation-source', { source }),
};
