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
