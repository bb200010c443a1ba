import type { FaceScan, ScanAttendance, ScanOutcome } from './api';

/** Pure display helpers of the face-ID review (unit-tested). */

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A similarity (0–1) as a percentage with at most one decimal, in the language's style:
 * 0.8734 → "87,3%" (id) / "87.3%" (en). Nothing, or anything not finite, is "—".
 */
export function formatPercent(value: number | null | undefined, lang = 'id'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const locale = lang.startsWith('en') ? 'en-US' : 'id-ID';
  let f = percentFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
    percentFormats.set(locale, f);
  }
  // Intl may put a no-break space before "%" in some locales; keep it tight everywhere.
  return f.format(value).replace(/\s+%/u, '%');
}

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
  return s.resolution === 'confirm' ? s.resolved_student_name || s.student_name : '';
}
