import { api, apiDownload } from '@/api/client';
import type { List, Page } from '@/api/types';
import type { Schema } from '@/api';

/** Wire types: server/internal/api/openapi/achievements.json (shared/api/achievements.go). */

export const LEVELS = ['sekolah', 'kabupaten', 'provinsi', 'nasional', 'internasional'] as const;
export type Level = (typeof LEVELS)[number];

/** Points per level; null: the level does not apply to the type. */
export type LevelPoints = Record<Level, number | null>;

export type AchievementCategory = Schema<'AchievementCategory'>;

export type AchievementType = Schema<'AchievementType'>;

export type AchievementTypeList = Schema<'AchievementTypeList'>;

export type AchievementTypeInput = Schema<'AchievementTypeInput'>;

export type ImportRow = Schema<'AchievementImportRow'>;

export type ImportResult = Schema<'AchievementImportResult'>;

export type AchievementStudent = Schema<'AchievementStudent'>;

export type Achievement = Schema<'Achievement'>;

export type RecordInput = Schema<'CreateAchievementRequest'>;

export interface AchievementFilters {
  student_id?: number;
  verified?: 'true' | 'false' | '';
  page?: number;
}

export const TEMPLATE_FILE_NAME = 'templat-jenis-prestasi.xlsx';

function importForm(file: File): FormData {
  const fd = new FormData();
  fd.append('file', file);
  return fd;
}

export const achievementsApi = {
  types: (signal?: AbortSignal) => api.get<AchievementTypeList>('/achievement-types', undefined, signal),
  createType: (input: AchievementTypeInput) => api.post<AchievementType>('/achievement-types', input),
  updateType: (id: number, input: AchievementTypeInput) => api.patch<AchievementType>(`/achievement-types/${id}`, input),
  deleteType: (id: number) => api.delete<void>(`/achievement-types/${id}`),
  categories: (signal?: AbortSignal) => api.get<List<AchievementCategory>>('/achievement-categories', undefined, signal),
  createCategory: (name: string) => api.post<AchievementCategory>('/achievement-categories', { name }),
  updateCategory: (id: number, name: string) => api.patch<AchievementCategory>(`/achievement-categories/${id}`, { name }),
  deleteCategory: (id: number) => api.delete<void>(`/achievement-categories/${id}`),
  importTemplate: () => apiDownload('/achievement-types/import-template'),
  importTypes: (file: File, dryRun: boolean) =>
    api.post<ImportResult>('/achievement-types/import', importForm(file), { query: { dry_run: dryRun ? 1 : undefined } }),
  list: (f: AchievementFilters, signal?: AbortSignal) =>
    api.get<Page<Achievement>>('/achievements', { student_id: f.student_id, verified: f.verified, page: f.page, per_page: 20 }, signal),
  record: (input: RecordInput, photos: File[]) => {
    if (photos.length === 0) return api.post<Achievement>('/achievements', input);
    const fd = new FormData();
    fd.append('data', JSON.stringify(input));
    for (const p of photos) fd.append('photos', p);
    return api.post<Achievement>('/achievements', fd);
  },
  verify: (id: number) => api.post<Achievement>(`/achievements/${id}/verify`),
  certificate: (id: number) => apiDownload(`/achievements/${id}/certificate.pdf`),
  /** One student's certificate of a semester's verified achievements (year: the academic year's first calendar year). */
  termCertificate: (studentId: number, year: number, semester: number) =>
    apiDownload(`/students/${studentId}/achievements/certificate.pdf`, { year, semester }),
  exportXlsx: (f: AchievementFilters) => apiDownload('/achievements/export', { verified: f.verified }),
};

export type PolicyMode = 'none' | 'offset' | 'amnesty';

/** GET/PUT /points-policy (openapi points-policy.json). */
export type PointsPolicy = Schema<'PointsPolicy'>;

export const policyApi = {
  get: (signal?: AbortSignal) => api.get<PointsPolicy>('/points-policy', undefined, signal),
  save: (p: PointsPolicy) => api.put<PointsPolicy>('/points-policy', p),
};

export type SimulateRequest = Schema<'SimulateRequest'>;

export type SimulateResponse = Schema<'SimulateResponse'>;

export const simulateApi = {
  run: (draft: SimulateRequest) => api.post<SimulateResponse>('/points-policy/simulate', draft),
};
