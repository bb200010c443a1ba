import type { Schema } from '@/api';

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

export type AttendanceCell = Schema<'AttendanceCell'>;

export type AttendanceFormStudent = Schema<'AttendanceFormStudent'>;

export type AttendanceForm = Schema<'AttendanceForm'>;

/** A cell the journal sent a different status for, kept because a person had set it. */
export type JournalConflict = Schema<'JournalConflict'>;

/** POST …/journal-conflicts: keep the person's entries, or store the journal's as the caller's. */
export type ConflictAction = 'keep' | 'use_journal';

export type ResolveConflictsRequest = Schema<'JournalConflictsRequest'>;

export interface AttendanceEntry {
  student_id: number;
  lesson_hour: number;
  status: CellStatus;
}

export type SaveAttendanceRequest = Schema<'SaveAttendanceRequest'>;

/** A warning letter a save issued, raised, lowered or withdrew (or, in a preview, would). */
export type LetterChange = Schema<'LetterChange'>;

/** POST …/preview: what a save would change, nothing stored. */
export type AttendancePreview = Schema<'AttendancePreview'>;

export type AttendanceResult = Schema<'AttendanceResult'>;

export type SaveAttendanceResponse = Schema<'SaveAttendanceResponse'>;
