import { api, apiDownload, apiResponse, fileNameFromDisposition, type DownloadedFile } from '@/api/client';
import type { Page } from '@/api/types';
import type { AcademicYear } from './academicYear';

/** Wire types: shared/api/violations.go (WarningLetter, StudentPoints, PointAuditEntry). */

export type LetterStatus = 'draft' | 'printed' | 'signed' | 'delivered' | 'withdrawn';

/** A history step: a status step, what a change of points did (raised, lowered; draft and withdrawn), or sent to the parent. */
export type LetterEventKind = LetterStatus | 'raised' | 'lowered' | 'sent';

export interface WarningLetterEvent {
  status: LetterEventKind;
  at: string;
  actor_name: string;
  /** The letter's level after the step (absent on old steps). */
  level?: number | null;
  /** The violation whose change caused a rule's step (it may be deleted since). */
  violation_id?: number | null;
}

export interface WarningLetter {
  id: number;
  student_id: number;
  student_name: string;
  student_nisn: string;
  class_id: number | null;
  class_name: string;
  level: number;
  /** The threshold's name when issued ("SP 1"). */
  name: string;
  min_points: number;
  academic_year_start: string;
  /** The academic year it was issued for ("2025/2026"). */
  academic_year?: string;
  /** A letter of an academic year that has ended: it prints, its status no longer moves. */
  past_year?: boolean;
  /** The student's total when the letter was issued. */
  points: number;
  violation_id: number | null;
  status: LetterStatus;
  issued_at: string;
  printed_at: string | null;
  signed_at: string | null;
  delivered_at: string | null;
  withdrawn_at: string | null;
  withdrawn_reason: string;
  /** The reference from the school's pattern ("007/SP-1/BK/XI/2026"), given at the first print; null before. */
  number?: string | null;
  numbered_at?: string | null;
  /** The short code printed with the QR code, and the public page it opens. */
  verify_code?: string | null;
  verify_url?: string | null;
  /** Every SP level the letter stands for, lowest first ([1, 2] for "SP 1–2"). */
  levels_covered?: number[];
  /** A delivered letter whose level the student's total has since fallen below. */
  total_fallen?: boolean;
  total_fallen_at?: string | null;
  /** When it was marked sent to the parent, and at which level. */
  sent_to_parent_at?: string | null;
  sent_level?: number | null;
  /** The latest "Saya sudah membaca" of a guardian in the family portal, and their names. */
  acknowledged_at?: string | null;
  acknowledged_by?: string;
  /** Detail only. */
  events?: WarningLetterEvent[];
  /** The threshold's colour, when the server sends it. */
  colour?: string;
}

/** GET /students/{id}/points. */
export interface StudentPoints {
  student_id: number;
  /** This academic year. */
  total: number;
  lifetime_total: number;
  /** 0: no level reached. */
  level: number;
  level_name: string;
  level_colour: string;
  /** null past the last level (or when no levels are set). */
  next_level: number | null;
  next_level_name: string;
  next_level_min_points: number | null;
  points_to_next: number | null;
  academic_year_start: string;
}

/** GET /students/{id}/years: a student's record per academic year, newest first. */
export interface StudentYears {
  current_start: string;
  data: StudentYear[];
}

export interface StudentYear {
  start: string;
  label: string;
  current: boolean;
  total: number;
  violations: number;
  letters: { id: number; level: number; name: string; status: LetterStatus }[];
}

export type PointAction = 'record' | 'delete' | 'update' | 'correct' | 'auto_record' | 'auto_update' | 'auto_delete' | 'offset' | 'amnesty';

export interface PointAuditEntry {
  id: number;
  at: string;
  student_id: number;
  student_name: string;
  violation_id: number | null;
  action: PointAction | string;
  points_before: number;
  points_after: number;
  actor_name: string;
  address: string;
}

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
export interface LetterSettings {
  number_pattern: string;
  updated_at?: string;
  /** Answer only. */
  placeholders?: string[];
  example?: string;
}

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
  saveSettings: (s: Pick<LetterSettings, 'number_pattern'>) => api.put<LetterSettings>('/settings/letters', s),
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
