import { api, apiDownload, apiResponse, fileNameFromDisposition, type DownloadedFile } from '@/api/client';
import type { Page } from '@/api/types';
import type { AcademicYear } from './academicYear';
import type { Schema } from '@/api';

/** Wire types: shared/api/violations.go (WarningLetter, StudentPoints, PointAuditEntry). */

export type LetterStatus = 'draft' | 'printed' | 'signed' | 'delivered' | 'withdrawn';

/** A history step: a status step, what a change of points did (raised, lowered; draft and withdrawn), or sent to the parent. */
export type LetterEventKind = LetterStatus | 'raised' | 'lowered' | 'sent';

export type WarningLetterEvent = Schema<'WarningLetterEvent'>;

export type WarningLetter = Schema<'WarningLetter'>;

/** GET /students/{id}/points. */
export type StudentPoints = Schema<'StudentPoints'>;

/** GET /students/{id}/years: a student's record per academic year, newest first. */
export type StudentYears = Schema<'StudentYears'>;

export type StudentYear = Schema<'StudentYear'>;

export type PointAction = 'record' | 'delete' | 'update' | 'correct' | 'auto_record' | 'auto_update' | 'auto_delete' | 'offset' | 'amnesty';

export type PointAuditEntry = Schema<'PointAuditEntry'>;

/** The few fields of a violation the student page lists (GET /violations). */
export interface ViolationSummary {
  id: number;
  student_id: number;
  type_name: string;
  category_name: string;
  category_colour: string;
  occurred_at: string;
  occurred_on: string;
  points: number;
  handling_status: 'unhandled' | 'in_progress' | 'resolved';
}

export interface LetterFilters {
  level: number | null;
  classId: number | null;
  status: LetterStatus | null;
  studentId: number | null;
  /** YYYY-MM-DD, Jakarta. */
  from: string | null;
  to: string | null;
  /** The first calendar year of the letters' academic year (2025 for 2025/2026). */
  academicYear: number | null;
  page: number;
}

export const LETTERS_PER_PAGE = 20;

/** GET/PUT /settings/letters. */
export type LetterSettings = Schema<'LetterSettings'>;
export type LetterSettingsInput = Schema<'LetterSettingsInput'>;

export const lettersApi = {
  list: (f: LetterFilters, perPage: number, signal?: AbortSignal) =>
    api.get<Page<WarningLetter>>(
      '/warning-letters',
      {
        level: f.level,
        class_id: f.classId,
        status: f.status,
        student_id: f.studentId,
        from: f.from,
        to: f.to,
        academic_year: f.academicYear,
        page: f.page,
        per_page: perPage,
      },
      signal,
    ),
  get: (id: number, signal?: AbortSignal) => api.get<WarningLetter>(`/warning-letters/${id}`, undefined, signal),
  setStatus: (id: number, status: LetterStatus) => api.post<WarningLetter>(`/warning-letters/${id}/status`, { status }),
  /** Marks the letter sent to the parent and queues the parent's message (once per letter and level). */
  send: (id: number) => api.post<WarningLetter>(`/warning-letters/${id}/send`),
  pdf: (id: number): Promise<DownloadedFile> => apiDownload(`/warning-letters/${id}/pdf`),
  /** POST /warning-letters/print: one PDF of the letters; their drafts become printed. */
  printBatch: async (ids: number[]): Promise<DownloadedFile> => {
    const res = await apiResponse('/warning-letters/print', { method: 'POST', body: { ids } }, 'application/pdf, application/json');
    return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) };
  },
  settings: (signal?: AbortSignal) => api.get<LetterSettings>('/settings/letters', undefined, signal),
  saveSettings: (s: LetterSettingsInput) => api.put<LetterSettings>('/settings/letters', s),
  academicYear: (signal?: AbortSignal) => api.get<AcademicYear>('/academic-year', undefined, signal),
  studentYears: (studentId: number, signal?: AbortSignal) => api.get<StudentYears>(`/students/${studentId}/years`, undefined, signal),
  points: (studentId: number, signal?: AbortSignal) => api.get<StudentPoints>(`/students/${studentId}/points`, undefined, signal),
  studentViolations: (studentId: number, perPage: number, signal?: AbortSignal) =>
    api.get<Page<ViolationSummary>>('/violations', { student_id: studentId, per_page: perPage }, signal),
  pointAudit: (p: { studentId: number | null; page: number; perPage: number }, signal?: AbortSignal) =>
    api.get<Page<PointAuditEntry>>('/point-audit', { student_id: p.studentId, page: p.page, per_page: p.perPage }, signal),
  /** The letterhead logo (multipart "logo"); settings.manage. */
  uploadLogo: (file: File) => {
    const form = new FormData();
    form.append('logo', file, file.name);
    return api.put<unknown>('/settings/school/logo', form);
  },
  removeLogo: () => api.delete<void>('/settings/school/logo'),
};
