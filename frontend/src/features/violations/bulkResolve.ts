import { todayInJakarta } from '@/lib/dates';

/** This school week in Jakarta: its Monday to today (a bulk resolve's default range). */
export function thisWeek(now: Date = new Date()): { from: string; to: string } {
  const d = todayInJakarta(now);
  const monday = d.subtract((d.day() + 6) % 7, 'day');
  return { from: monday.format('YYYY-MM-DD'), to: d.format('YYYY-MM-DD') };
}
