/**
 * Today's school day in Jakarta as YYYY-MM-DD, without dayjs (the family portal's small chunk
 * uses it; the staff screens have todayInJakarta in dates.ts).
 */
export function jakartaDay(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(now);
}
