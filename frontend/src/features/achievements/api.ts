import { api, apiDownload } from '@/api/client';
import type { List, Page } from '@/api/types';

/** Wire types: server/internal/api/openapi/achievements.json (shared/api/achievements.go). */

export const LEVELS = ['sekolah', 'kabupaten', 'provinsi', 'nasional', 'internasional'] as const;
export type Level = (typeof LEVELS)[number];

/** Points per level; null: the level does not apply to the type. */
export type LevelPoints = Record<Level, number | null>;

export interface AchievementCategory {
  id: number;
  name: string;
  sort_order: number;
  type_count: number;
}

export interface AchievementType {
  id: number;
  category_id: number;
  category_name: string;
  name: string;
  points: LevelPoints;
  description: string;
  active: boolean;
  use_count: number;
}

export interface AchievementTypeList {
  data: AchievementType[];
  categories: AchievementCategory[];
}

export interface AchievementTypeInput {
  category_id?: number;
  name?: string;
  points?: LevelPoints;
  description?: string;
  active?: boolean;
}

export interface ImportRow {
  row: number;
  category: string;
  name: string;
  code?: string;
  reason?: string;
}

export interface ImportResult {
  dry_run: boolean;
  created: ImportRow[];
  skipped: ImportRow[];
  rejected: ImportRow[];
}

export interface AchievementStudent {
  id: number;
  name: string;
  nisn: string;
  class_id: number | null;
  class_name: string;
}

export interface Achievement {
  id: number;
  type_id: number;
  type_name: string;
  category_name: string;
  level: Level;
  points: number;
  achieved_on: string;
  description: string;
  students: AchievementStudent[];
  recorded_by_name: string;
  verified_by_name: string;
  verified_at: string | null;
  photo_count: number;
}

export interface RecordInput {
  student_ids: number[];
  type_id: number;
  level: Level;
  achieved_on: string;
  description: string;
}

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
export interface PointsPolicy {
  mode: PolicyMode;
  offset_cap_percent: number;
  amnesty_clean_school_days: number;
  amnesty_points: number;
  updated_at?: string | null;
}

export const policyApi = {
  get: (signal?: AbortSignal) => api.get<PointsPolicy>('/points-policy', undefined, signal),
  save: (p: PointsPolicy) => api.put<PointsPolicy>('/points-policy', p),
};

export interface SimulateRequest {
  thresholds?: { level: number; name: string; min_points: number }[];
  type_points?: { type_id: number; points: number }[];
  policy?: PointsPolicy;
}

export interface SimulateResponse {
  academic_year_start: string;
  students: number;
  levels: { level: number; name: string; today: number; draft: number }[];
  changes: {
    student_id: number;
    name: string;
    class_name: string;
    today_total: number;
    draft_total: number;
    today_level: number;
    draft_level: number;
    change: 'crossed' | 'fell_back';
  }[];
  classes: { class_id: number | null; class_name: string; crossed: number; fell_back: number }[];
  note: string;
}

export const simulateApi = {
  run: (draft: SimulateRequest) => api.post<SimulateResponse>('/points-policy/simulate', draft),
};
