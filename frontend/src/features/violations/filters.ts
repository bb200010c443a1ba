import type { QueryValue } from '@/api/client';
import { todayInJakarta } from '@/lib/dates';
import { parseSource, type Source } from '@/features/violation-source/source';
import { HANDLING_STATUSES, type HandlingStatus } from './types';

/** How the list is sorted; "-" first is descending. */
export const SORTS = ['-occurred_at', 'occurred_at', '-points', 'student', 'class'] as const;
export type Sort = (typeof SORTS)[number];
export const DEFAULT_SORT: Sort = '-occurred_at';

/** The recorder filter: a user id, or the journal sync (no recorder). */
export const JOURNAL = 'journal';

/** The violation list's filters, as kept in the page's URL. */
export interface ViolationFilters {
  /** Jakarta days, YYYY-MM-DD; '' = open-ended. */
  from: string;
  to: string;
  departmentId: number | null;
  grade: number | null;
  classId: number | null;
  categoryId: number | null;
  typeId: number | null;
  status: HandlingStatus | '';
  /** '' = both. */
  verified: 'true' | 'false' | '';
  /** A user id as text, JOURNAL, or ''. */
  recorder: string;
  /** One student's violations (a link from the student's page); not a field on screen. */
  studentId: number | null;
  q: string;
  sort: Sort;
  page: number;
  /** "Sumber" as the URL names it; null: the user's own (the page resolves it). */
  source: Source | null;
}

/** This month in Jakarta: its first day to its last. */
export function thisMonth(now: Date = new Date()): { from: string; to: string } {
  const d = todayInJakarta(now);
  return { from: d.startOf('month').format('YYYY-MM-DD'), to: d.endOf('month').format('YYYY-MM-DD') };
}

export function defaultFilters(now: Date = new Date()): ViolationFilters {
  return {
    ...thisMonth(now),
    departmentId: null,
    grade: null,
    classId: null,
    categoryId: null,
    typeId: null,
    status: '',
    verified: '',
    recorder: '',
    studentId: null,
    q: '',
    sort: DEFAULT_SORT,
    page: 1,
    source: null,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function positiveInt(v: string | null): number | null {
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

function day(v: string | null): string {
  return v && DAY.test(v) ? v : '';
}

/**
 * Reads the filters from the page's URL. With no dates in it the list shows this month;
 * `period=all` shows every date. Anything unreadable falls back to its default.
 */
export function filtersFromSearch(sp: URLSearchParams, now: Date = new Date()): ViolationFilters {
  const d = defaultFilters(now);
  const status = sp.get('handling_status') ?? '';
  const verified = sp.get('verified');
  const recorder = sp.get('recorder') ?? '';
  const sort = sp.get('sort') ?? '';
  let { from, to } = d;
  if (sp.get('period') === 'all') {
    from = '';
    to = '';
  } else if (sp.has('from') || sp.has('to')) {
    from = day(sp.get('from'));
    to = day(sp.get('to'));
  }
  return {
    from,
    to,
    departmentId: positiveInt(sp.get('department_id')),
    grade: positiveInt(sp.get('grade')),
    classId: positiveInt(sp.get('class_id')),
    categoryId: positiveInt(sp.get('category_id')),
    typeId: positiveInt(sp.get('type_id')),
    status: (HANDLING_STATUSES as readonly string[]).includes(status) ? (status as HandlingStatus) : '',
    verified: verified === 'true' || verified === 'false' ? verified : '',
    recorder: recorder === JOURNAL || positiveInt(recorder) ? recorder : '',
    studentId: positiveInt(sp.get('student_id')),
    q: (sp.get('q') ?? '').slice(0, 100),
    sort: (SORTS as readonly string[]).includes(sort) ? (sort as Sort) : DEFAULT_SORT,
    page: positiveInt(sp.get('page')) ?? 1,
    source: parseSource(sp.get('source')),
  };
}

/** The URL form of the filters: defaults are left out so a plain /violations stays plain. */
export function filtersToSearch(f: ViolationFilters, now: Date = new Date()): URLSearchParams {
  const d = defaultFilters(now);
  const sp = new URLSearchParams();
  if (!f.from && !f.to) sp.set('period', 'all');
  else if (f.from !== d.from || f.to !== d.to) {
    if (f.from) sp.set('from', f.from);
    if (f.to) sp.set('to', f.to);
  }
  if (f.departmentId) sp.set('department_id', String(f.departmentId));
  if (f.grade) sp.set('grade', String(f.grade));
  if (f.classId) sp.set('class_id', String(f.classId));
  if (f.categoryId) sp.set('category_id', String(f.categoryId));
  if (f.typeId) sp.set('type_id', String(f.typeId));
  if (f.status) sp.set('handling_status', f.status);
  if (f.verified) sp.set('verified', f.verified);
  if (f.recorder) sp.set('recorder', f.recorder);
  if (f.studentId) sp.set('student_id', String(f.studentId));
  if (f.q.trim()) sp.set('q', f.q.trim());
  if (f.sort !== DEFAULT_SORT) sp.set('sort', f.sort);
  if (f.page > 1) sp.set('page', String(f.page));
  if (f.source) sp.set('source', f.source);
  return sp;
}

/** The filters of GET /violations and GET /violations/export (empty values are dropped). */
export function filterQuery(f: ViolationFilters): Record<string, QueryValue> {
  return {
    from: f.from,
    to: f.to,
    department_id: f.departmentId,
    grade: f.grade,
    class_id: f.classId,
    category_id: f.categoryId,
    type_id: f.typeId,
    handling_status: f.status,
    verified: f.verified,
    recorder: f.recorder,
    student_id: f.studentId,
    q: f.q.trim(),
    sort: f.sort,
    source: f.source,
  };
}

/** The GET /violations query: the filters plus the page. */
export function listQuery(f: ViolationFilters, perPage: number): Record<string, QueryValue> {
  return { ...filterQuery(f), page: f.page, per_page: perPage };
}

/** The export's relative URL with the list's filters (no page: every matching row). */
export function exportUrl(f: ViolationFilters): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(filterQuery(f))) {
    if (v === undefined || v === null || v === '') continue;
    sp.set(k, String(v));
  }
  const qs = sp.toString();
  return `/api/v1/violations/export${qs ? `?${qs}` : ''}`;
}

/** Applies a change; any change but the page itself goes back to page 1. */
export function changeFilters(f: ViolationFilters, change: Partial<ViolationFilters>): ViolationFilters {
  const next = { ...f, ...change };
  if (!('page' in change)) next.page = 1;
  return next;
}

/** How many filters beyond the date range narrow the list (for the phone's "Filters (n)" button). */
export function activeFilterCount(f: ViolationFilters): number {
  return [f.departmentId, f.grade, f.classId, f.categoryId, f.typeId, f.status, f.verified, f.recorder, f.studentId].filter((v) => v !== null && v !== '').length;
}

/** Whether anything narrows the list beyond this month's default (then "clear filters" is offered). */
export function isFiltered(f: ViolationFilters, now: Date = new Date()): boolean {
  const d = defaultFilters(now);
  return activeFilterCount(f) > 0 || !!f.q.trim() || f.from !== d.from || f.to !== d.to;
}

/** The export's file name: "pelanggaran-2026-11-01-sd-2026-11-30.xlsx" (or "-semua" for every date). */
export function exportFileName(f: ViolationFilters): string {
  if (!f.from && !f.to) return 'pelanggaran-semua.xlsx';
  return `pelanggaran-${f.from || 'awal'}-sd-${f.to || 'kini'}.xlsx`;
}
