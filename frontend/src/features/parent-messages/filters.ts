import type { QueryValue } from '@/api/client';
import { EVENTS, STATUSES, type ParentEvent, type ParentMessageStatus } from './api';

/** The delivery log's filters, as kept in the page's URL. */
export interface LogFilters {
  status: ParentMessageStatus | '';
  event: ParentEvent | '';
  classId: number | null;
  studentId: number | null;
  /** Jakarta days, YYYY-MM-DD; '' = open-ended. */
  from: string;
  to: string;
  page: number;
}

export const DEFAULT_FILTERS: LogFilters = { status: '', event: '', classId: null, studentId: null, from: '', to: '', page: 1 };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function positiveInt(v: string | null): number | null {
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

function oneOf<T extends string>(list: readonly T[], v: string | null): T | '' {
  return v !== null && (list as readonly string[]).includes(v) ? (v as T) : '';
}

/** Reads the filters from the URL; anything unreadable falls back to its default. */
export function filtersFromSearch(sp: URLSearchParams): LogFilters {
  const from = sp.get('from');
  const to = sp.get('to');
  return {
    status: oneOf(STATUSES, sp.get('status')),
    event: oneOf(EVENTS, sp.get('event')),
    classId: positiveInt(sp.get('class_id')),
    studentId: positiveInt(sp.get('student_id')),
    from: from && DAY.test(from) ? from : '',
    to: to && DAY.test(to) ? to : '',
    page: positiveInt(sp.get('page')) ?? 1,
  };
}

/** The URL form: defaults left out, so a plain /pesan-orang-tua stays plain. */
export function filtersToSearch(f: LogFilters): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.status) sp.set('status', f.status);
  if (f.event) sp.set('event', f.event);
  if (f.classId) sp.set('class_id', String(f.classId));
  if (f.studentId) sp.set('student_id', String(f.studentId));
  if (f.from) sp.set('from', f.from);
  if (f.to) sp.set('to', f.to);
  if (f.page > 1) sp.set('page', String(f.page));
  return sp;
}

/** Applies a change; any change but the page itself goes back to page 1. */
export function changeFilters(f: LogFilters, change: Partial<LogFilters>): LogFilters {
  const next = { ...f, ...change };
  if (!('page' in change)) next.page = 1;
  return next;
}

/** The GET /parent-messages query (empty values are dropped by the client). */
export function listQuery(f: LogFilters, perPage: number): Record<string, QueryValue> {
  return {
    status: f.status,
    event: f.event,
    class_id: f.classId,
    student_id: f.studentId,
    from: f.from,
    to: f.to,
    page: f.page,
    per_page: perPage,
  };
}

/** Whether anything but the status narrows the list (the status chips stay visible). */
export function isFiltered(f: LogFilters): boolean {
  return !!(f.event || f.classId || f.studentId || f.from || f.to);
}

/** Clears every filter but keeps the chosen status when `keepStatus`. */
export function clearedFilters(f: LogFilters, keepStatus = false): LogFilters {
  return { ...DEFAULT_FILTERS, status: keepStatus ? f.status : '' };
}
