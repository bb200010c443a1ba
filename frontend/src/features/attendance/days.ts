import { inJakarta, todayInJakarta } from '@/lib/dates';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** Today's school day in Jakarta as YYYY-MM-DD, whatever the device's zone. */
export function todayISO(now: Date = new Date()): string {
  return todayInJakarta(now).format('YYYY-MM-DD');
}

/** A real calendar date written YYYY-MM-DD. */
export function isISODate(s: string | undefined): s is string {
  return !!s && ISO.test(s) && inJakarta(s).format('YYYY-MM-DD') === s;
}

/** The date `days` calendar days after `date` (negative: before). */
export function shiftDay(date: string, days: number): string {
  return inJakarta(date).add(days, 'day').format('YYYY-MM-DD');
}
