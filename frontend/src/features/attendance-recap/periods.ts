import { inJakarta, todayInJakarta } from '@/lib/dates';
import type { Period } from './types';

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-\d{2}$/;

/** Today's school day in Jakarta, YYYY-MM-DD. */
export function todayISO(now: Date = new Date()): string {
  return todayInJakarta(now).format('YYYY-MM-DD');
}

/** A real calendar date written YYYY-MM-DD. */
export function isISODate(s: string | null | undefined): s is string {
  return !!s && ISO.test(s) && inJakarta(s).format('YYYY-MM-DD') === s;
}

/** A month written YYYY-MM, years 2000..2100 (what the server accepts). */
export function isMonth(s: string | null | undefined): s is string {
  if (!s || !MONTH.test(s)) return false;
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  return y >= 2000 && y <= 2100 && m >= 1 && m <= 12;
}

/** The Monday of date's week (a Sunday belongs to the week that began six days before). */
export function mondayOf(date: string): string {
  const d = inJakarta(date);
  const back = (d.day() + 6) % 7;
  return d.subtract(back, 'day').format('YYYY-MM-DD');
}

/** The date one period before (step -1) or after (step 1) date: a day, a week or a month. */
export function shiftPeriod(date: string, period: Period, step: number): string {
  const unit = period === 'daily' ? 'day' : period === 'weekly' ? 'week' : 'month';
  return inJakarta(date).add(step, unit).format('YYYY-MM-DD');
}

/** The month YYYY-MM of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** Present hours (H + T) of stored hours, as the server computes it; null when nothing is stored. */
export function percentage(c: { h: number; s: number; i: number; a: number; t: number }): number | null {
  const n = c.h + c.s + c.i + c.a + c.t;
  if (n === 0) return null;
  return Math.round(((c.h + c.t) * 1000) / n) / 10;
}
