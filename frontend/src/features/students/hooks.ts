import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { studentsApi, type StudentFilters } from './api';
import type { ParentContactInput } from './types';
import { SYNC_POLL_MS } from './sync';

/** Query keys of the school data; classes/ and settings/ use them too. */
export const schoolKeys = {
  students: ['students'] as const,
  studentList: (f: StudentFilters, perPage: number) => ['students', 'list', f, perPage] as const,
  student: (id: number) => ['students', 'one', id] as const,
  departments: ['departments'] as const,
  classes: ['classes'] as const,
  class: (id: number) => ['classes', 'one', id] as const,
  syncs: ['student-syncs'] as const,
  sync: (id: number) => ['student-syncs', 'one', id] as const,
  latestSync: ['student-syncs', 'latest'] as const,
  syncReadiness: ['student-syncs', 'readiness'] as const,
  syncHistory: (perPage: number) => ['student-syncs', 'history', perPage] as const,
};

export function useStudents(f: StudentFilters, perPage: number) {
  return useQuery({
    queryKey: schoolKeys.studentList(f, perPage),
    queryFn: ({ signal }) => studentsApi.list(f, perPage, signal),
    placeholderData: keepPreviousData,
  });
}

export function useStudent(id: number) {
  return useQuery({ queryKey: schoolKeys.student(id), queryFn: ({ signal }) => studentsApi.get(id, signal), enabled: id > 0 });
}

/** Edit (or hand back to student affairs) a student's parent contact. */
export function useEditParentContact(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ParentContactInput) => studentsApi.editParentContact(id, input),
    onSuccess: (st) => {
      qc.setQueryData(schoolKeys.student(id), st);
      void qc.invalidateQueries({ queryKey: ['students', 'list'] });
    },
  });
}

export function useDepartments() {
  return useQuery({ queryKey: schoolKeys.departments, queryFn: ({ signal }) => studentsApi.departments(signal), staleTime: 60_000 });
}

export function useClasses() {
  return useQuery({ queryKey: schoolKeys.classes, queryFn: ({ signal }) => studentsApi.classes(signal), staleTime: 30_000 });
}

export function useClass(id: number | null) {
  return useQuery({ queryKey: schoolKeys.class(id ?? 0), queryFn: ({ signal }) => studentsApi.class(id!, signal), enabled: id !== null });
}

/** Whether a sync can run; only for users with students.sync. */
export function useSyncReadiness(enabled = true) {
  return useQuery({ queryKey: schoolKeys.syncReadiness, queryFn: ({ signal }) => studentsApi.syncStatus(signal), enabled, staleTime: 30_000 });
}

/** The newest sync run (null before any); only for users with students.sync. */
export function useLatestSync(enabled = true) {
  return useQuery({ queryKey: schoolKeys.latestSync, queryFn: ({ signal }) => studentsApi.latestSync(signal), enabled });
}

export function useSyncHistory(perPage: number, enabled = true) {
  return useQuery({ queryKey: schoolKeys.syncHistory(perPage), queryFn: ({ signal }) => studentsApi.syncs(perPage, signal), enabled });
}

/** One sync job, polled every ~700 ms while it runs. */
export function useSyncJob(id: number | null) {
  return useQuery({
    queryKey: schoolKeys.sync(id ?? 0),
    queryFn: ({ signal }) => studentsApi.sync(id!, signal),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.status === 'running' || q.state.data === undefined ? SYNC_POLL_MS : false),
    staleTime: 0,
  });
}

export function useStartSync() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => studentsApi.startSync(),
    onSuccess: (job) => {
      qc.setQueryData(schoolKeys.sync(job.id), job);
      void qc.invalidateQueries({ queryKey: schoolKeys.syncs });
    },
  });
}

/** After a sync finished: everything that shows school data is stale. */
export function useInvalidateSchoolData() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: schoolKeys.students }),
      qc.invalidateQueries({ queryKey: schoolKeys.classes }),
      qc.invalidateQueries({ queryKey: schoolKeys.departments }),
      qc.invalidateQueries({ queryKey: schoolKeys.syncs }),
    ]);
}
