import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { violationTypesApi } from '@/features/violation-types/api';
import { vtKeys } from '@/features/violation-types/hooks';
import { violationsApi, type ViolationFilters } from './api';
import type { AttendanceKind, CorrectViolationRequest, CreateHandlingRequest, CreateSharedHandlingRequest, CreateViolationsRequest, ResolveAttendanceRequest } from './types';

export const violationKeys = {
  all: ['violations'] as const,
  list: (f: ViolationFilters, perPage: number) => ['violations', 'list', f, perPage] as const,
  one: (id: number) => ['violations', 'one', id] as const,
  points: (studentId: number) => ['violations', 'points', studentId] as const,
  users: (q: string) => ['violations', 'users', q] as const,
  openAttendance: (classId: number, from: string, to: string, kind: AttendanceKind) => ['violations', 'open-attendance', classId, from, to, kind] as const,
};

/** `enabled` false while the list's source is not known yet (see useScreenSource). */
export function useViolations(f: ViolationFilters, perPage: number, enabled = true) {
  return useQuery({
    queryKey: violationKeys.list(f, perPage),
    queryFn: ({ signal }) => violationsApi.list(f, perPage, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useViolation(id: number) {
  return useQuery({ queryKey: violationKeys.one(id), queryFn: ({ signal }) => violationsApi.get(id, signal), enabled: id > 0 });
}

export function useStudentPoints(studentId: number | null) {
  return useQuery({
    queryKey: violationKeys.points(studentId ?? 0),
    queryFn: ({ signal }) => violationsApi.studentPoints(studentId!, signal),
    enabled: !!studentId,
    // The form must not fail as a page when only the preview cannot load.
    throwOnError: false,
  });
}

export function useParticipantUsers(q: string, enabled: boolean) {
  return useQuery({
    queryKey: violationKeys.users(q),
    queryFn: ({ signal }) => violationsApi.users(q, signal),
    enabled,
    staleTime: 60_000,
    throwOnError: false,
  });
}

/** Every change to a violation refreshes the lists, the violation and the points shown. */
function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: violationKeys.all });
}

export function useCorrectViolation() {
  const invalidate = useInvalidate();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: CorrectViolationRequest }) => violationsApi.correct(id, input),
    // The letters and the point history follow a correction.
    onSuccess: () => Promise.all([invalidate(), qc.invalidateQueries({ queryKey: ['warning-letters'] }), qc.invalidateQueries({ queryKey: ['student-points'] })]),
  });
}

export function useRecordViolations() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ input, photos }: { input: CreateViolationsRequest; photos: File[] }) => violationsApi.create(input, photos),
    onSuccess: invalidate,
  });
}

export function useDeleteViolation() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => violationsApi.remove(id), onSuccess: invalidate });
}

export function useVerifyViolation() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => violationsApi.verify(id), onSuccess: invalidate });
}

export function useResolveViolation() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => violationsApi.resolve(id), onSuccess: invalidate });
}

export function useReopenViolation() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => violationsApi.reopen(id), onSuccess: invalidate });
}

export function useAddHandling() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: CreateHandlingRequest }) => violationsApi.addHandling(id, input),
    onSuccess: invalidate,
  });
}

export function useDeleteHandling() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (handlingId: number) => violationsApi.removeHandling(handlingId), onSuccess: invalidate });
}

export function useAddSharedHandling() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: CreateSharedHandlingRequest) => violationsApi.addSharedHandling(input), onSuccess: invalidate });
}

export function useResolveHandling() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (handlingId: number) => violationsApi.resolveHandling(handlingId), onSuccess: invalidate });
}

/** What a bulk resolve would cover, for its dialog (only while it is open). */
export function useOpenAttendance(classId: number, from: string, to: string, kind: AttendanceKind, enabled: boolean) {
  return useQuery({
    queryKey: violationKeys.openAttendance(classId, from, to, kind),
    queryFn: ({ signal }) => violationsApi.openAttendance(classId, from, to, kind, signal),
    enabled: enabled && classId > 0 && !!from && !!to,
    throwOnError: false,
  });
}

export function useResolveAttendance() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ classId, input }: { classId: number; input: ResolveAttendanceRequest }) => violationsApi.resolveAttendance(classId, input),
    onSuccess: invalidate,
  });
}

// Master data from the violation-types feature, read with this feature's own failure handling:
// a user without violation_types.view still records (the preview then uses the server's levels).

/** Types and categories: `active: 'true'` for the form, '' for the list's filters (old records keep inactive types). */
export function useTypeList(active: 'true' | '', enabled = true) {
  const params = { active } as const;
  return useQuery({
    queryKey: vtKeys.typeList(params),
    queryFn: ({ signal }) => violationTypesApi.listTypes(params, signal),
    enabled,
    staleTime: 60_000,
    throwOnError: false,
  });
}

export function useThresholdList(enabled: boolean) {
  return useQuery({ queryKey: vtKeys.thresholds, queryFn: ({ signal }) => violationTypesApi.thresholds(signal), enabled, staleTime: 60_000, throwOnError: false });
}

export function useHandlingTypeList(enabled: boolean) {
  return useQuery({ queryKey: vtKeys.handling, queryFn: ({ signal }) => violationTypesApi.handlingTypes(signal), enabled, staleTime: 60_000, throwOnError: false });
}
