/** Wire types of the class form, mirroring shared/api/attendance.go. */

/** A stored status of one lesson hour. */
export type AttendanceStatus = 'H' | 'S' | 'I' | 'A' | 'T';
/** What a cell shows: a stored (or drafted) status, or "belum" (nothing stored). */
export type CellStatus = AttendanceStatus | 'belum';

/** The stored statuses in the order screens show them. */
export const STATUSES: readonly AttendanceStatus[] = ['H', 'S', 'I', 'A', 'T'];
export const BELUM = 'belum' as const;

/**
 * Who set a cell last: a person on the form, the journal (E-Jurnal), a Face-ID kiosk, or a
 * parent's excuse a person approved. user and excuse are a person's entries: a push never
 * overwrites them.
 */
export type CellSource = 'user' | 'journal' | 'kiosk' | 'excuse';

export interface AttendanceCell {
  lesson_hour: number;
  status: AttendanceStatus;
  /** Who set it last. */
  set_by: CellSource;
  /** The journal (E-Jurnal) pushed it last. */
  from_journal: boolean;
  /** The person who set it last ("" for the journal, a kiosk or a deleted account). */
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
  /** Journal entries kept out because a person had set the cell; [] when none. */
  journal_conflicts: JournalConflict[];
}

/** A cell the journal sent a different status for, kept because a person had set it. */
export interface JournalConflict {
  student_id: number;
  lesson_hour: number;
  /** What the journal sent. */
  journal_status: AttendanceStatus;
  /** What the person set and is stored. */
  status: AttendanceStatus;
  set_by_name: string;
  set_at: string;
  pushed_at: string;
}

/** POST …/journal-conflicts: keep the person's entries, or store the journal's as the caller's. */
export type ConflictAction = 'keep' | 'use_journal';

export interface ResolveConflictsRequest {
  action: ConflictAction;
  cells: { student_id: number; lesson_hour: number }[];
}

export interface AttendanceEntry {
  student_id: number;
  lesson_hour: number;
  status: CellStatus;
}

export interface SaveAttendanceRequest {
  entries: AttendanceEntry[];
  /** The caller saw the preview: cells others set may change (else 409 attendance.confirm_required). */
  confirm?: boolean;
}

/** A warning letter a save issued, raised, lowered or withdrew (or, in a preview, would). */
export interface LetterChange {
  /** 0 in a preview of a letter not issued yet. */
  id: number;
  student_id: number;
  student_name: string;
  level: number;
  /** "SP 1", or "SP 1–2" for a letter covering both. */
  name: string;
  change: 'issued' | 'raised' | 'lowered' | 'withdrawn';
}

/** POST …/preview: what a save would change, nothing stored. */
export interface AttendancePreview {
  /** Stored cells whose status would change… */
  cells_changed: number;
  /** …of them last set by the journal, a Face-ID kiosk, another person. */
  cells_from_journal: number;
  cells_from_kiosk: number;
  cells_from_others: number;
  violations_created: number;
  violations_removed: number;
  violations_updated: number;
  letters: LetterChange[];
  needs_confirmation: boolean;
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
  letters_withdrawn: number;
  /** A push: entries not applied because a person had set the cell. */
  kept_by_person: number;
}

export interface SaveAttendanceResponse {
  results: AttendanceResult;
  form: AttendanceForm;
  /** Every letter the save issued or withdrew. */
  letters: LetterChange[];
}
