import { api } from '@/api/client';
import type { Source } from './source';

/** GET/PUT /preferences/violation-source (shared/api/followup.go). */
export interface SourcePreference {
  /** What the screens open with: the user's own choice, else `default`. */
  source: Source;
  /** The role's: attendance for a homeroom teacher; a counselor's follows the school's follow-up setting; else behaviour. */
  default: Source;
  saved: boolean;
}

export const sourceApi = {
  get: (signal?: AbortSignal) => api.get<SourcePreference>('/preferences/violation-source', undefined, signal),
  /** null forgets the choice (back to the role's default). */
  save: (source: Source | null) => api.put<SourcePreference>('/preferences/violation-source', { source }),
};
