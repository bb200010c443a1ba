import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { List } from '@/api/types';

/** Wire types: server/internal/api/openapi/violation_types.json. */

export interface ViolationCategory {
  id: number;
  name: string;
  /** A hex colour (#e03131) or a Mantine colour name (red, orange, …). */
  colour: string;
  sort_order: number;
  type_count: number;
  active_type_count: number;
  created_at: string;
  updated_at: string;
}

export interface CategoryRef {
  id: number;
  name: string;
  colour: string;
  sort_order: number;
}

export interface ViolationType {
  id: number;
  name: string;
  slug: string;
  points: number;
  category_id: number;
  category: CategoryRef;
  default_sanction: string;
  description: string;
  active: boolean;
  is_system: boolean;
  created_at: string;
  updated_at: string;
}

export interface ViolationTypeList {
  data: ViolationType[];
  categories: ViolationCategory[];
}

export interface TypeListParams {
  q?: string;
  category_id?: number | '';
  active?: 'true' | 'false' | '';
}

export interface CategoryInput {
  name?: string;
  colour?: string;
  sort_order?: number;
}

export interface TypeInput {
  name?: string;
  slug?: string;
  points?: number;
  category_id?: number;
  default_sanction?: string;
  description?: string;
  active?: boolean;
}

export interface SPThreshold {
  id?: number;
  level: number;
  name: string;
  min_points: number;
  colour: string;
  default_text: string;
  updated_at?: string;
}

export interface SPThresholdInput {
  level: number;
  name: string;
  min_points: number;
  colour: string;
  default_text: string;
}

export interface HandlingType {
  id: number;
  name: string;
  sort_order: number;
  active: boolean;
  /** Recording a handling of this type summons the parent (a WhatsApp message is queued). */
  summons_parent: boolean;
  created_at: string;
  updated_at: string;
}

export interface HandlingTypeInput {
  name?: string;
  sort_order?: number;
  active?: boolean;
  summons_parent?: boolean;
}

/** Why a row was skipped or rejected: the text in the request's language and its catalogue key. */
export interface ImportReason {
  reason: string;
  reason_code: string;
  reason_params?: Record<string, unknown>;
}

export interface ImportResult {
  /** True for a preview: nothing was saved. */
  dry_run: boolean;
  /** `id` is 0 in a preview; `new_category` marks a category that does not exist yet. */
  created: { row: number; id: number; name: string; category: string; points: number; new_category: boolean }[];
  skipped: ({ row: number; name: string; category: string } & ImportReason)[];
  rejected: ({ row: number; name: string } & ImportReason)[];
  categories_created: string[];
  counts: { created: number; skipped: number; rejected: number };
}

/** What the file is saved as on the user's device. */
export const TEMPLATE_FILE_NAME = 'template-jenis-pelanggaran.xlsx';
export const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The server's limit (MaxImportBytes): 5 MB. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export const violationTypesApi = {
  listTypes: (p: TypeListParams, signal?: AbortSignal) =>
    api.get<ViolationTypeList>('/violation-types', { q: p.q, category_id: p.category_id, active: p.active }, signal),
  createType: (input: TypeInput) => api.post<ViolationType>('/violation-types', input),
  updateType: (id: number, input: TypeInput) => api.patch<ViolationType>(`/violation-types/${id}`, input),
  removeType: (id: number) => api.delete<void>(`/violation-types/${id}`),

  listCategories: (signal?: AbortSignal) => api.get<List<ViolationCategory>>('/violation-categories', undefined, signal),
  createCategory: (input: CategoryInput) => api.post<ViolationCategory>('/violation-categories', input),
  updateCategory: (id: number, input: CategoryInput) => api.patch<ViolationCategory>(`/violation-categories/${id}`, input),
  removeCategory: (id: number) => api.delete<void>(`/violation-categories/${id}`),

  thresholds: (signal?: AbortSignal) => api.get<List<SPThreshold>>('/sp-thresholds', undefined, signal),
  saveThresholds: (thresholds: SPThresholdInput[]) => api.put<List<SPThreshold>>('/sp-thresholds', { thresholds }),

  handlingTypes: (signal?: AbortSignal) => api.get<List<HandlingType>>('/handling-types', undefined, signal),
  createHandlingType: (input: HandlingTypeInput) => api.post<HandlingType>('/handling-types', input),
  updateHandlingType: (id: number, input: HandlingTypeInput) => api.patch<HandlingType>(`/handling-types/${id}`, input),
  removeHandlingType: (id: number) => api.delete<void>(`/handling-types/${id}`),

  importTemplate: (): Promise<DownloadedFile> => apiDownload('/violation-types/import-template'),
  /** With preview, the server only answers what the import would do. */
  importFile: (file: File, preview: boolean) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return api.post<ImportResult>('/violation-types/import', form, preview ? { query: { dry_run: 1 } } : undefined);
  },
};
