import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import 'dayjs/locale/id';
import 'dayjs/locale/en';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Every school date is in Jakarta, whatever the device's zone. */
export const SCHOOL_TZ = 'Asia/Jakarta';

/** Display styles; add one here rather than formatting dates elsewhere. */
export type DateStyle =
  /** 22 November 2026 */
  | 'date'
  /** Minggu, 22 November 2026 */
  | 'weekdayDate'
  /** 22 Nov 2026 */
  | 'shortDate'
  /** 22 Nov 2026 14.05 (id) / 22 Nov 2026 14:05 (en) */
  | 'dateTime'
  /** 22 Nov 2026 14.05.09 / 22 Nov 2026 14:05:09: logs */
  | 'dateTimeSeconds'
  /** 14.05 / 14:05 */
  | 'time'
  /** 2026-11-22: for API query parameters */
  | 'iso';

const formats: Record<string, Record<DateStyle, string>> = {
  id: {
    date: 'D MMMM YYYY',
    weekdayDate: 'dddd, D MMMM YYYY',
    shortDate: 'D MMM YYYY',
    dateTime: 'D MMM YYYY HH.mm',
    dateTimeSeconds: 'D MMM YYYY HH.mm.ss',
    time: 'HH.mm',
    iso: 'YYYY-MM-DD',
  },
  en: {
    date: 'D MMMM YYYY',
    weekdayDate: 'dddd, D MMMM YYYY',
    shortDate: 'D MMM YYYY',
    dateTime: 'D MMM YYYY HH:mm',
    dateTimeSeconds: 'D MMM YYYY HH:mm:ss',
    time: 'HH:mm',
    iso: 'YYYY-MM-DD',
  },
};

export type DateInput = string | number | Date | dayjs.Dayjs;

/** The instant as a dayjs in Jakarta. A bare date ("2026-11-02") is a Jakarta calendar day. */
export function inJakarta(value: DateInput): dayjs.Dayjs {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return dayjs.tz(value, SCHOOL_TZ);
  }
  return dayjs(value).tz(SCHOOL_TZ);
}

/**
 * THE date formatter: every date shown to a person goes through here. Returns '' for
 * null, undefined or an unparseable value.
 */
export function formatDate(value: DateInput | null | undefined, style: DateStyle = 'date', lang = 'id'): string {
  if (value === null || value === undefined || value === '') return '';
  const d = inJakarta(value);
  if (!d.isValid()) return '';
  const locale = formats[lang] ? lang : 'id';
  const f = formats[locale]![style];
  return d.locale(locale).format(f);
}

/** Today's date in Jakarta, for the header and for "today" defaults. */
export function todayInJakarta(now: Date = new Date()): dayjs.Dayjs {
  return dayjs(now).tz(SCHOOL_TZ);
}
