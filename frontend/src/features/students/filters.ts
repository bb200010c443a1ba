import type { QueryValue } from '@/api/client';
import { parseGrade, type Grade } from './types';

/** The students list's filters, as kept in the page's URL (?q=&department_id=&grade=&class_id=&active=&page=). */
export interface StudentFilters {
  q: string;
  departmentId: number | null;
  grade: Grade | null;
  classId: number | null;
  /** '' = active and inactive. */
  active: 'true' | 'false' | '';
  page: number;
}

export const DEFAULT_FILTERS: StudentFilters = { q: '', departmentId: null, grade: null, classId: null, active: 'true', page: 1 };

function positiveInt(v: string | null): number | null {
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

const grade = parseGrade;

/**
 * Reads the filters from the page's URL. `active` defaults to "true" (active students);
 * `active=all` shows everyone. Anything unreadable falls back to the default.
 */
export function filtersFromSearch(sp: URLSearchParams): StudentFilters {
  const a = sp.get('active');
  return {
    q: (sp.get('q') ?? '').slice(0, 100),
    departmentId: positiveInt(sp.get('department_id')),
    grade: grade(sp.get('grade')),
    classId: positiveInt(sp.get('class_id')),
    active: a === 'false' ? 'false' : a === 'all' ? '' : 'true',
    page: positiveInt(sp.get('page')) ?? 1,
  };
}

/** The URL form of the filters: defaults are left out so a plain /students stays plain. */
export function filtersToSearch(f: StudentFilters): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.q.trim()) sp.set('q', f.q.trim());
  if (f.departmentId) sp.set('department_id', String(f.departmentId));
  if (f.grade) sp.set('grade', String(f.grade));
  if (f.classId) sp.set('class_id', String(f.classId));
  if (f.active !== 'true') sp.set('active', f.active === '' ? 'all' : 'false');
  if (f.page > 1) sp.set('page', String(f.page));
  return sp;
}

/** The GET /students query for the filters (empty values are dropped by the API client). */
export function studentsQuery(f: StudentFilters, perPage: number): Record<string, QueryValue> {
  return {
    q: f.q.trim(),
    department_id: f.departmentId,
    grade: f.grade,
    class_id: f.classId,
    active: f.active,
    page: f.page,
    per_page: perPage,
  };
}

/** Applies a change to the filters; any change but the page itself goes back to page 1. */
export function changeFilters(f: StudentFilters, change: Partial<StudentFilters>): StudentFilters {
  const next = { ...f, ...change };
  if (!('page' in change)) next.page = 1;
  return next;
}

