import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsApi, type SchoolProfile, type StudentAffairsInput } from './api';

export const settingsKeys = {
  studentAffairs: ['settings', 'student-affairs'] as const,
  school: ['settings', 'school'] as const,
  publicSchool: ['school', 'public'] as const,
};

export function useStudentAffairs() {
  return useQuery({ queryKey: settingsKeys.studentAffairs, queryFn: ({ signal }) => settingsApi.studentAffairs(signal), staleTime: 0 });
}

export function useSaveStudentAffairs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: StudentAffairsInput) => settingsApi.saveStudentAffairs(input),
    onSuccess: (saved) => qc.setQueryData(settingsKeys.studentAffairs, saved),
  });
}

export function useTestStudentAffairs() {
  return useMutation({ mutationFn: (input: { url: string; token?: string }) => settingsApi.testStudentAffairs(input) });
}

export function useSchoolProfile() {
  return useQuery({ queryKey: settingsKeys.school, queryFn: ({ signal }) => settingsApi.school(signal) });
}

export function useSaveSchoolProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: SchoolProfile) => settingsApi.saveSchool(p),
    onSuccess: (saved) => qc.setQueryData(settingsKeys.school, saved),
  });
}

/** The school's name for the sign-in page; a failure only leaves the name out. */
export function usePublicSchool() {
  return useQuery({
    queryKey: settingsKeys.publicSchool,
    queryFn: ({ signal }) => settingsApi.publicSchool(signal),
    staleTime: 5 * 60_000,
    retry: false,
    throwOnError: false,
  });
}
