import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { ViolationRecap } from './types';

export const reportsApi = {
  recap: (query: Record<string, string>, offset: number, limit: number, signal?: AbortSignal) =>
    api.get<ViolationRecap>('/reports/violation-recap', { ...query, detail_offset: offset, detail_limit: limit }, signal),
  /** The PDF, named by the server (scope and period). */
  pdf: (query: Record<string, string>): Promise<DownloadedFile> => apiDownload('/reports/violation-recap.pdf', query),
};
