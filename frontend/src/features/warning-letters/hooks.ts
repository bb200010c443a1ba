import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lettersApi, type LetterFilters, type LetterSettingsInput, type LetterStatus, type StudentPoints } from './api';
import { saveFile } from '@/platform';
import { todayInJakarta } from '@/lib/dates';
import { batchFileName } from './selection';
import { useSession } from '@/auth/session';
import { violationTypesApi } from '@/features/violation-types/api';
import { vtKeys } from '@/features/violation-types/hooks';

/** Query keys of letters, points and the point history. */
export const letterKeys = {
  letters: ['warning-letters'] as const,
  list: (f: LetterFilters, perPage: number) => ['warning-letters', 'list', f, perPage] as const,
  one: (id: number) => ['warning-letters', 'one', id] as const,
  points: (studentId: number) => ['student-points', studentId] as const,
  years: (studentId: number) => ['student-points', studentId, 'years'] as const,
  academicYear: ['academic-year'] as const,
  settings: ['settings', 'letters'] as const,
  studentViolations: (studentId: number, perPage: number) => ['violations', 'student', studentId, perPage] as const,
  pointAudit: (studentId: number | null, page: number, perPage: number) => ['point-audit', studentId, page, perPage] as const,
};

export function useLetters(f: LetterFilters, perPage: number, enabled = true) {
  return useQuery({
    queryKey: letterKeys.list(f, perPage),
    queryFn: ({ signal }) => lettersApi.list(f, perPage, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useLetter(id: number) {
  return useQuery({ queryKey: letterKeys.one(id), queryFn: ({ signal }) => lettersApi.get(id, signal), enabled: id > 0 });
}

/** Moves a letter one step on; every list and the letter itself are refetched. */
export function useSetLetterStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: LetterStatus }) => lettersApi.setStatus(id, status),
    onSuccess: (_saved, { id }) =>
      Promise.all([qc.invalidateQueries({ queryKey: letterKeys.letters }), qc.invalidateQueries({ queryKey: letterKeys.one(id) })]),
  });
}

/**
 * Prints letters as one PDF and saves it through the platform (the desktop's native dialog):
 * the server numbers them and moves the drafts to printed, so every list is refetched, even
 * when the saving failed after the server had printed.
 */
export function usePrintLetters() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const { blob, fileName } = await lettersApi.printBatch(ids);
      await saveFile(blob, fileName ?? batchFileName(ids.length, todayInJakarta().format('YYYY-MM-DD')));
      return ids.length;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: letterKeys.letters }),
  });
}

/** The letter number pattern (settings.view). */
export function useLetterSettings(enabled = true) {
  return useQuery({ queryKey: letterKeys.settings, queryFn: ({ signal }) => lettersApi.settings(signal), enabled });
}

export function useSaveLetterSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: LetterSettingsInput) => lettersApi.saveSettings(s),
    onSuccess: (saved) => qc.setQueryData(letterKeys.settings, saved),
  });
}

/** Sends a letter to the parent; every list and the letter itself are refetched. */
export function useSendLetter() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => lettersApi.send(id),
    onSuccess: (_saved, id) =>
      Promise.all([qc.invalidateQueries({ queryKey: letterKeys.letters }), qc.invalidateQueries({ queryKey: letterKeys.one(id) })]),
  });
}

export function useStudentPoints(studentId: number, enabled = true) {
  return useQuery({
    queryKey: letterKeys.points(studentId),
    queryFn: ({ signal }) => lettersApi.points(studentId, signal),
    enabled: enabled && studentId > 0,
    staleTime: 0,
  });
}

/** The academic year running today (every signed-in user may ask). */
export function useAcademicYear(enabled = true) {
  return useQuery({ queryKey: letterKeys.academicYear, queryFn: ({ signal }) => lettersApi.academicYear(signal), enabled, staleTime: 5 * 60_000 });
}

/** A student's record per academic year (violations.view). */
export function useStudentYears(studentId: number, enabled = true) {
  return useQuery({
    queryKey: letterKeys.years(studentId),
    queryFn: ({ signal }) => lettersApi.studentYears(studentId, signal),
    enabled: enabled && studentId > 0,
    staleTime: 0,
  });
}

export function useStudentViolations(studentId: number, perPage: number, enabled = true) {
  return useQuery({
    queryKey: letterKeys.studentViolations(studentId, perPage),
    queryFn: ({ signal }) => lettersApi.studentViolations(studentId, perPage, signal),
    enabled: enabled && studentId > 0,
    staleTime: 0,
  });
}

/** A page of the point history, newest first; always refetched (it is a log). */
export function usePointAudit(studentId: number | null, page: number, perPage: number) {
  return useQuery({
    queryKey: letterKeys.pointAudit(studentId, page, perPage),
    queryFn: ({ signal }) => lettersApi.pointAudit({ studentId, page, perPage }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** The SP thresholds (level names, colours) when the user may see them; the list's level filter uses them. */
export function useLevelThresholds(enabled: boolean) {
  return useQuery({ queryKey: vtKeys.thresholds, queryFn: ({ signal }) => violationTypesApi.thresholds(signal), enabled, staleTime: 60_000 });
}

/**
 * A letter level's colour: the letter's own, else the threshold's (when the user may see the
 * thresholds), else the student's current level colour when it is the same level.
 */
export function useLevelColour(points?: StudentPoints) {
  const { can } = useSession();
  const thresholds = useLevelThresholds(can('violation_types.view'));
  const list = thresholds.data?.data;
  return useCallback(
    (l: { level: number; colour?: string }) =>
      l.colour ?? list?.find((th) => th.level === l.level)?.colour ?? (points && points.level === l.level ? points.level_colour : null),
    [list, points],
  );
}
