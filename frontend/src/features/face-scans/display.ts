import type { FaceScan, ScanAttendance, ScanOutcome } from './api';

/** Pure display helpers of the face-ID review (unit-tested). */

/** A similarity (0–1) as a percentage: the shared helper (src/lib/numbers.ts). */
export { formatPercent } from '@/lib/numbers';

export const outcomeColor: Record<ScanOutcome, string> = {
  matched: 'teal',
  uncertain: 'yellow',
  unknown: 'gray',
  liveness_failed: 'red',
  not_enrolled_model: 'grape',
};

export const attendanceColor: Record<Exclude<ScanAttendance, ''>, string> = {
  H: 'teal',
  T: 'orange',
  kept: 'blue',
  none: 'gray',
};

/** The attendance effect's i18n key under `attendance.` ('' counts as none). */
export function attendanceKey(a: ScanAttendance | null | undefined): Exclude<ScanAttendance, ''> {
  return a === 'H' || a === 'T' || a === 'kept' ? a : 'none';
}

/** Whether an uncertain scan can still be resolved with a tap. */
export function isOpen(s: FaceScan): boolean {
  return s.outcome === 'uncertain' && !s.resolution;
}

/** Who a resolved scan went to, for the log: the confirmed student, '' when rejected or open. */
export function resolvedName(s: FaceScan): string {
  return s.resolution === 'confirmed' ? s.resolved_student_name || s.student_name : '';
}
