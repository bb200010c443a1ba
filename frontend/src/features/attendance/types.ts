/** Wire types of the class form, mirroring shared/api/attendance.go. */

/** A stored status of one lesson hour. */
export type AttendanceStatus = 'H' | 'S' | 'I' | 'A' | 'T';
/** What a cell shows: a stored (or drafted) status, or "belum" (nothing stored). */
export type CellStatus = AttendanceStatus | 'belum';

/** The stored statuses in the order screens show them. */
export const STATUSES: readonly AttendanceStatus[] = ['H', 'S', 'I', 'A', 'T'];
export const BELUM = 'belum' as const;

export interface AttendanceCell {
  lesson_hour: number;
  status: AttendanceStatus;
  /** The journal (E-Jurnal) pushed it last. */
  from_journal: boolean;
  /** Who saved it last on the form ("" for the journal or a deleted account). */
  updated_by: string;
  updated_at: string;
  notes?: string;
}

export interface AttendanceFormStudent {
  id: number;
  nisn: string;
  nis: string;
  full_name: string;
  gender: string;
  /** Hours not listed are belum. */
  cells: AttendanceCell[];
}

export interface AttendanceForm {
  class_id: number;
  class_name: string;
  /** The Jakarta school day, YYYY-MM-DD. */
  date: string;
  /** Hours 1..lesson_hours. */
  lesson_hours: number;
  students: AttendanceFormStudent[];
  can_edit: boolean;
}

export interface AttendanceEntry {
  student_id: number;
  lesson_hour: number;
  status: CellStatus;
}

export interface SaveAttendanceRequest {
  entries: AttendanceEntry[];
}

export interface AttendanceResult {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  unmatched: number;
  violations_created: number;
  violations_updated: number;
  violations_removed: number;
  violations_kept: number;
  letters_issued: number;
}

export interface SaveAttendanceResponse {
  results: AttendanceResult;
  form: AttendanceForm;
}
