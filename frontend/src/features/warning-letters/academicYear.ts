import type { Schema } from '@/api';

/**
 * The academic year: points totals and the SP ladder count per year, starting on the school's
 * academic_year_start (MM-DD, Settings → school profile). The server says which year runs today
 * (GET /academic-year); these helpers name a year and find the year of any day.
 */

/** GET /academic-year. */
export type AcademicYear = Schema<'AcademicYear'>;

/** "2026/2027" for a year starting on "2026-07-01". */
export function yearLabel(start: string): string {
  const y = Number(start.slice(0, 4));
  if (!Number.isInteger(y) || y <= 0) return '';
  return `${y}/${y + 1}`;
}

/**
 * The first day (YYYY-MM-DD) of the academic year containing day (YYYY-MM-DD, a Jakarta date)
 * for a start on monthDay (MM-DD): that day of day's own calendar year, or of the one before
 * when day comes earlier.
 */
export function yearStartOf(day: string, monthDay: string): string {
  const year = Number(day.slice(0, 4));
  const md = /^\d\d-\d\d$/.test(monthDay) ? monthDay : '07-01';
  return day.slice(5, 10) >= md ? `${year}-${md}` : `${year - 1}-${md}`;
}
