import { STATUSES, countOf, type AttendanceCounts, type AttendanceRecap, type AttendanceStatus } from './types';

/** The sum of the five statuses. */
export function sumOf(c: AttendanceCounts): number {
  return c.h + c.s + c.i + c.a + c.t;
}

/** One chip of a summary: a status or "belum" (nothing stored), and its number. */
export interface Chip {
  key: AttendanceStatus | 'belum';
  n: number;
}

/**
 * The chips of a count per status plus the unrecorded: every status (zeros too, so the row does
 * not jump), then "belum". Their numbers add up to the whole (a class, or class × school days).
 */
export function chipsOf(counts: AttendanceCounts, unrecorded: number): Chip[] {
  return [...STATUSES.map((s) => ({ key: s, n: countOf(counts, s) })), { key: 'belum' as const, n: unrecorded }];
}

/** "2026/2027" for the academic year that starts in 2026. */
export function academicYear(year: number): string {
  return `${year}/${year + 1}`;
}

/** The day one semester before (step -1) or after (step 1) the semester from..to: the day before from, or after to. */
export function semesterNeighbour(from: string, to: string, step: number): string {
  const d = new Date(`${step < 0 ? from : to}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + (step < 0 ? -1 : 1));
  return d.toISOString().slice(0, 10);
}

/** What the chips of a recap count: a day's students, or a period's student-days. */
export function recapChips(r: AttendanceRecap): { chips: Chip[]; total: number; perDay: boolean } {
  if (r.period === 'daily') {
    const d = r.summary[0];
    const chips = chipsOf(d?.students ?? { h: 0, s: 0, i: 0, a: 0, t: 0 }, d?.unrecorded ?? r.students.length);
    return { chips, total: r.students.length, perDay: true };
  }
  return { chips: chipsOf(r.days, r.days_unrecorded), total: r.students.length * r.school_days, perDay: false };
}
