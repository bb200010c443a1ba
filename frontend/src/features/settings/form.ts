import dayjs from 'dayjs';
import 'dayjs/locale/id';
import 'dayjs/locale/en';

/** Pure helpers of the settings forms (unit-tested). */

/** What PUT /settings/student-affairs gets: the token only when it was replaced. */
export function studentAffairsPayload(v: { url: string; schedule: string; scheduleOn: boolean }, replacement: string | null) {
  return {
    url: v.url.trim(),
    schedule: v.scheduleOn ? v.schedule : '',
    ...(replacement !== null ? { token: replacement.trim() } : {}),
  };
}

/** The body of "Test connection": the form's URL, and the new token if one is being typed. */
export function testPayload(url: string, replacement: string | null): { url: string; token?: string } {
  const r = replacement?.trim();
  return r ? { url: url.trim(), token: r } : { url: url.trim() };
}

/** "07-01" → {month: 7, day: 1}; null when it is not MM-DD. */
export function parseMonthDay(v: string): { month: number; day: number } | null {
  const m = /^(\d{2})-(\d{2})$/.exec(v.trim());
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(2024, month, 0)).getUTCDate()) return null;
  return { month, day };
}

/**
 * The first day of the academic year running on `today` ("YYYY-MM-DD" in Jakarta) for a
 * start of `mmdd`: this year's start if it has passed, else last year's. '' when invalid.
 */
export function currentYearStart(mmdd: string, today: string): string {
  const md = parseMonthDay(mmdd);
  const t = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  if (!md || !t) return '';
  const start = `${String(md.month).padStart(2, '0')}-${String(md.day).padStart(2, '0')}`;
  let year = Number(t[1]);
  if (`${t[2]}-${t[3]}` < start) year--;
  // 29 February in a year without one: the 1st of March.
  if (start === '02-29' && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return `${year}-03-01`;
  return `${year}-${start}`;
}

/** A NIP as typed in groups ("19720315 200003 1 002") reduced to its digits; the server does the same. */
export function normalizeNip(v: string): string {
  return v.replace(/[\s.-]/g, '');
}

/** "07-01" as the date picker's value: that day in a leap year (so 29 February can be chosen). */
export function monthDayToPickerValue(mmdd: string): string | null {
  return parseMonthDay(mmdd) ? `2024-${mmdd.trim()}` : null;
}

/** The picker's "2024-07-01" back to "07-01". */
export function pickerValueToMonthDay(v: string | null): string {
  const m = /^\d{4}-(\d{2}-\d{2})/.exec(v ?? '');
  return m?.[1] ?? '';
}

/** "07-01" as people say it: "1 Juli" (id), "1 July" (en); '' when invalid. */
export function formatMonthDay(mmdd: string, lang: string): string {
  const v = monthDayToPickerValue(mmdd);
  return v ? dayjs(v).locale(lang.startsWith('en') ? 'en' : 'id').format('D MMMM') : '';
}
