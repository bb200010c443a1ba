import { api } from '@/api/client';
import type { CaseCategory } from '../api';
import type { Schema } from '@/api';

/** Wire types: shared/api/cases.go (PublicReport*). No sign-in. */

export type ReportReceipt = Schema<'PublicReportReceipt'>;

export type ReportView = Schema<'PublicReportView'>;

export type ReportInput = Schema<'PublicReportRequest'>;

export const publicReportsApi = {
  categories: (signal?: AbortSignal) => api.get<CaseCategory[]>('/public/reports/categories', undefined, signal),
  /** JSON, or multipart with the photos (re-encoded without EXIF by the server). */
  file: (input: ReportInput, photos: File[]) => {
    if (photos.length === 0) return api.post<ReportReceipt>('/public/reports', input);
    const fd = new FormData();
    fd.append('data', JSON.stringify(input));
    for (const p of photos) fd.append('photos', p);
    return api.post<ReportReceipt>('/public/reports', fd);
  },
  lookup: (code: string, pin: string) => api.post<ReportView>('/public/reports/lookup', { code, pin }),
  message: (code: string, pin: string, text: string) => api.post<ReportView>('/public/reports/messages', { code, pin, text }),
};

export const LAPOR_PATH = '/lapor';
export const LACAK_PATH = '/lapor/lacak';
