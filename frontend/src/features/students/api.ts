import { api } from '@/api/client';
import type { List, Page } from '@/api/types';
import { studentsQuery, type StudentFilters } from './filters';
import type { Department, ParentContactInput, SchoolClass, Student, StudentSync, SyncReadiness } from './types';

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
