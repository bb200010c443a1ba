import { api, type QueryValue } from '@/api/client';
import type { List, Page } from '@/api/types';
import { defaultFilters, field, id, text, type FiltersOf } from '@/lib/urlFilters';
import { parseGrade, type Department, type Grade, type ParentContactInput, type SchoolClass, type Student, type StudentSync, type SyncReadiness } from './types';

/**
 * The students list's filters, as kept in its URL (?q=&department_id=&grade=&class_id=&active=&page=).
 * `active` is "true" (active students) unless the URL says `active=false` or `active=all` ('').
 */
export const studentFilters = {
  q: text('q'),
  departmentId: id('department_id'),
  grade: field<Grade | null>('grade', null, (raw) => parseGrade(raw) ?? undefined, (v) => (v ? String(v) : '')),
  classId: id('class_id'),
  active: field<'true' | 'false' | ''>('active', 'true', (raw) => (raw === 'false' ? 'false' : raw === 'all' ? '' : undefined), (v) => v || 'all'),
};

export type StudentFilters = FiltersOf<typeof studentFilters>;

/** Active students of every class, page 1 (the pickers search from here). */
export const DEFAULT_FILTERS: StudentFilters = defaultFilters(studentFilters);

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

export const studentsApi = {
  list: (f: StudentFilters, perPage: number, signal?: AbortSignal) => api.get<Page<Student>>('/students', studentsQuery(f, perPage), signal),
  get: (id: number, signal?: AbortSignal) => api.get<Student>(`/students/${id}`, undefined, signal),
  /** Edit the parent's name and phone (students.edit_contact); answers the student. */
  editParentContact: (id: number, input: ParentContactInput) => api.patch<Student>(`/students/${id}`, input),
  departments: (signal?: AbortSignal) => api.get<List<Department>>('/departments', undefined, signal),
  classes: (signal?: AbortSignal) => api.get<List<SchoolClass>>('/classes', undefined, signal),
  class: (id: number, signal?: AbortSignal) => api.get<SchoolClass>(`/classes/${id}`, undefined, signal),
  startSync: () => api.post<StudentSync>('/students/sync'),
  sync: (id: number, signal?: AbortSignal) => api.get<StudentSync>(`/students/sync/${id}`, undefined, signal),
  /** Whether a sync can run (a student-affairs URL is set); never the URL itself. */
  syncStatus: (signal?: AbortSignal) => api.get<SyncReadiness>('/students/sync/status', undefined, signal),
  latestSync: (signal?: AbortSignal) => api.get<StudentSync | null>('/students/sync/latest', undefined, signal),
  syncs: (perPage: number, signal?: AbortSignal) => api.get<Page<StudentSync>>('/students/syncs', { per_page: perPage }, signal),
};
