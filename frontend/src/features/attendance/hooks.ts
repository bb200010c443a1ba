import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attendanceApi } from './api';
import type { AttendanceEntry } from './types';

export const attendanceKeys = {
  all: ['attendance'] as const,
  form: (classId: number, date: string) => ['attendance', 'form', classId, date] as const,
};

export function useAttendanceForm(classId: number, date: string) {
  return useQuery({
    queryKey: attendanceKeys.form(classId, date),
    queryFn: ({ signal }) => attendanceApi.form(classId, date, signal),
    enabled: classId > 0 && /^\d{4}-\d{2}-\d{2}$/.test(date),
    // A teacher's unsaved draft sits on top of what was loaded: do not swap it underneath.
    refetchOnWindowFocus: false,
  });
}

/**
 * Saves the form; the answer carries the form as stored now, which replaces the cached one.
 * Other features' lists (violations, recaps) change with it, so everything attendance- and
 * violation-related is refreshed.
 */
export function useSaveAttendance(classId: number, date: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (entries: AttendanceEntry[]) => attendanceApi.save(classId, date, entries),
    onSuccess: (res) => {
      qc.setQueryData(attendanceKeys.form(classId, date), res.form);
      void qc.invalidateQueries({ queryKey: ['violations'] });
      void qc.invalidateQueries({ queryKey: ['attendance-recap'] });
    },
  });
}
