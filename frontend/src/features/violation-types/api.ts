import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { List } from '@/api/types';
import type { Schema } from '@/api';

/** Wire types: server/internal/api/openapi/violation_types.json. */

export type ViolationCategory = Schema<'ViolationCategory'>;

export type CategoryRef = ViolationType['category'];

export type ViolationType = Schema<'ViolationType'>;

export type ViolationTypeList = Schema<'ViolationTypeList'>;

export interface TypeListParams {
  q?: string;
  category_id?: number | '';
  active?: 'true' | 'false' | '';
}

export type CategoryInput = Schema<'ViolationCategoryInput'>;

export type TypeInput = Schema<'ViolationTypeInput'>;

export type SPThreshold = Schema<'SPThreshold'>;

export type SPThresholdInput = Schema<'SPThresholdsInput'>['thresholds'][number];

export type HandlingType = Schema<'HandlingType'>;

export type HandlingTypeInput = Schema<'HandlingTypeInput'>;

/** Why a row was skipped or rejected: the text in the request's language and its catalogue key. */
export interface ImportReason {
  reason: string;
  reason_code: string;
  reason_params?: Record<string, unknown>;
}

export type ImportResult = Schema<'ViolationTypeImportResult'>;

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
