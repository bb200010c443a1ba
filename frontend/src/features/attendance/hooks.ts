import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attendanceApi } from './api';
import type { AttendanceEntry, ResolveConflictsRequest, SaveAttendanceResponse } from './types';

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
 * What a change of attendance answers carries: the form as stored now, which replaces the
 * cached one. Other features' lists (violations, letters, recaps) change with it, so
 * everything attendance- and violation-related is refreshed.
 */
function useApplyAnswer(classId: number, date: string) {
  const qc = useQueryClient();
  return (res: SaveAttendanceResponse) => {
    qc.setQueryData(attendanceKeys.form(classId, date), res.form);
    void qc.invalidateQueries({ queryKey: ['violations'] });
    void qc.invalidateQueries({ queryKey: ['attendance-recap'] });
    if (res.letters?.length) void qc.invalidateQueries({ queryKey: ['warning-letters'] });
  };
}

/** Saves the form; confirm says the caller saw the preview of what others set (see attendanceApi.save). */
export function useSaveAttendance(classId: number, date: string) {
  const onSuccess = useApplyAnswer(classId, date);
  return useMutation({
    mutationFn: ({ entries, confirm = false }: { entries: AttendanceEntry[]; confirm?: boolean }) => attendanceApi.save(classId, date, entries, confirm),
    onSuccess,
  });
}

/** The dry run of a save: what it would change, nothing stored. */
export function usePreviewAttendance(classId: number, date: string) {
  return useMutation({ mutationFn: (entries: AttendanceEntry[]) => attendanceApi.preview(classId, date, entries) });
}

/**
 * Answers the journal-conflict notice: keep the people's entries or use the journal's. A refusal
 * most often means someone else decided first (or a new push came): the form is read again.
 */
export function useResolveJournalConflicts(classId: number, date: string) {
  const qc = useQueryClient();
  const onSuccess = useApplyAnswer(classId, date);
  return useMutation({
    mutationFn: (body: ResolveConflictsRequest) => attendanceApi.resolveConflicts(classId, date, body),
    onSuccess,
    onError: () => void qc.invalidateQueries({ queryKey: attendanceKeys.form(classId, date) }),
  });
}
