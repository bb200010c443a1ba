import { api, type QueryValue } from '@/api/client';
import type { Page } from '@/api/types';
import { todayInJakarta } from '@/lib/dates';
import { field, id, oneOf, page, period, positiveInt, text, type FiltersOf } from '@/lib/urlFilters';
import { parseSource, type Source } from '@/features/violation-source/source';
import { HANDLING_STATUSES } from './types';
import type {
  AttendanceKind,
  CorrectViolationRequest,
  CorrectViolationResponse,
  CreateHandlingRequest,
  CreateSharedHandlingRequest,
  CreateViolationsRequest,
  CreateViolationsResponse,
  Handling,
  OpenAttendanceViolations,
  ResolveAttendanceRequest,
  ResolveAttendanceResponse,
  StudentPoints,
  Violation,
} from './types';

/** How the list is sorted; "-" first is descending. */
export const SORTS = ['-occurred_at', 'occurred_at', '-points', 'student', 'class'] as const;
export type Sort = (typeof SORTS)[number];
export const DEFAULT_SORT: Sort = '-occurred_at';

/** The recorder filter: a user id, or the journal sync (no recorder). */
export const JOURNAL = 'journal';

/** This month in Jakarta: its first day to its last. */
export function thisMonth(now: Date = new Date()): { from: string; to: string } {
  const d = todayInJakarta(now);
  return { from: d.startOf('month').format('YYYY-MM-DD'), to: d.endOf('month').format('YYYY-MM-DD') };
}

/**
 * The violation list's filters, as kept in the page's URL. With no dates in it the list shows
 * this month; `period=all` shows every date.
 */
export const violationFilters = {
  period: period({ initial: () => thisMonth(), allKey: 'period' }),
  departmentId: id('department_id'),
  grade: id('grade'),
  classId: id('class_id'),
  categoryId: id('category_id'),
  typeId: id('type_id'),
  status: oneOf('handling_status', HANDLING_STATUSES),
  /** '' = both. */
  verified: oneOf('verified', ['true', 'false'] as const),
  /** A user id as text, JOURNAL, or ''. */
  recorder: field('recorder', '', (raw) => (raw === JOURNAL || positiveInt(raw) ? raw : undefined)),
  /** One student's violations (a link from the student's page); not a field on screen. */
  studentId: id('student_id'),
  q: text('q'),
  sort: oneOf('sort', SORTS, DEFAULT_SORT),
  page: page(),
  /** "Sumber" as the URL names it; null: the user's own (the page resolves it). */
  source: field<Source | null>('source', null, (raw) => parseSource(raw) ?? undefined, (v) => v ?? ''),
};

export type ViolationFilters = FiltersOf<typeof violationFilters>;

/** The filters of GET /violations and GET /violations/export (empty values are dropped). */
export function filterQuery(f: ViolationFilters): Record<string, QueryValue> {
  return {
    from: f.period.from,
    to: f.period.to,
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

/** How many filters beyond the date range narrow the list (for the phone's "Filters (n)" button). */
export function activeFilterCount(f: ViolationFilters): number {
  return [f.departmentId, f.grade, f.classId, f.categoryId, f.typeId, f.status, f.verified, f.recorder, f.studentId].filter((v) => v !== null && v !== '').length;
}

/** Whether anything narrows the list beyond this month's default (then "clear filters" is offered). */
export function isFiltered(f: ViolationFilters, now: Date = new Date()): boolean {
  const d = thisMonth(now);
  return activeFilterCount(f) > 0 || !!f.q.trim() || f.period.from !== d.from || f.period.to !== d.to;
}

/** The export's file name: "pelanggaran-2026-11-01-sd-2026-11-30.xlsx" (or "-semua" for every date). */
export function exportFileName(f: ViolationFilters): string {
  const { from, to } = f.period;
  if (!from && !to) return 'pelanggaran-semua.xlsx';
  return `pelanggaran-${from || 'awal'}-sd-${to || 'kini'}.xlsx`;
}

/** At most this many evidence photos per recording (the server's limit too). */
export const MAX_PHOTOS = 5;
/** The server's limit on one photo before it is re-encoded: 10 MB. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

export const violationsApi = {
  list: (f: ViolationFilters, perPage: number, signal?: AbortSignal) => api.get<Page<Violation>>('/violations', listQuery(f, perPage), signal),
  get: (id: number, signal?: AbortSignal) => api.get<Violation>(`/violations/${id}`, undefined, signal),
  /** JSON when there are no photos; else multipart: the request as JSON in "data", the images in "photos". */
  create: (input: CreateViolationsRequest, photos: readonly File[]) => {
    if (photos.length === 0) return api.post<CreateViolationsResponse>('/violations', input);
    const form = new FormData();
    form.append('data', JSON.stringify(input));
    for (const p of photos) form.append('photos', p, p.name);
    return api.post<CreateViolationsResponse>('/violations', form);
  },
  /** Corrects type, time, place, description or sanction: only the fields sent change. */
  correct: (id: number, input: CorrectViolationRequest) => api.patch<CorrectViolationResponse>(`/violations/${id}`, input),
  remove: (id: number) => api.delete<void>(`/violations/${id}`),
  verify: (id: number) => api.post<Violation>(`/violations/${id}/verify`),
  resolve: (id: number) => api.post<Violation>(`/violations/${id}/resolve`),
  reopen: (id: number) => api.post<Violation>(`/violations/${id}/reopen`),
  addHandling: (id: number, input: CreateHandlingRequest) => api.post<Handling>(`/violations/${id}/handlings`, input),
  removeHandling: (handlingId: number) => api.delete<void>(`/handlings/${handlingId}`),
  /** One record for several violations (the list's selection). */
  addSharedHandling: (input: CreateSharedHandlingRequest) => api.post<Handling>('/handlings', input),
  /** Resolves every violation a record covers. */
  resolveHandling: (handlingId: number) => api.post<Handling>(`/handlings/${handlingId}/resolve`),
  openAttendance: (classId: number, from: string, to: string, kind: AttendanceKind, signal?: AbortSignal) =>
    api.get<OpenAttendanceViolations>(`/classes/${classId}/attendance-violations/open`, { from, to, kind }, signal),
  resolveAttendance: (classId: number, input: ResolveAttendanceRequest) =>
    api.post<ResolveAttendanceResponse>(`/classes/${classId}/attendance-violations/resolve`, input),
  studentPoints: (studentId: number, signal?: AbortSignal) => api.get<StudentPoints>(`/students/${studentId}/points`, undefined, signal),
  /** Users to pick as handling participants (needs users.view). */
  users: (q: string, signal?: AbortSignal) =>
    api.get<Page<{ id: number; name: string; username: string; role: string }>>('/users', { q, per_page: 20, active: 'true' }, signal),
};

