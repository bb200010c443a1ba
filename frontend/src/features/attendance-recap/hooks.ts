import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { recapApi } from './api';
import type { DayRuleSetting, Period } from './types';

/** Query keys start with 'attendance-recap': the class form refreshes them all after a save. */
export const recapKeys = {
  all: ['attendance-recap'] as const,
  classRecap: (classId: number, period: Period, date: string) => ['attendance-recap', 'class', classId, period, date] as const,
  schoolRecap: (period: Period, date: string) => ['attendance-recap', 'school', period, date] as const,
  /** One key per month: moving the calendar fetches only that month. */
  calendar: (kind: 'class' | 'student', id: number, month: string) => ['attendance-recap', 'calendar', kind, id, month] as const,
  semester: (classId: number, year: number, semester: number) => ['attendance-recap', 'semester', classId, year, semester] as const,
  dayRule: ['attendance-day-rule'] as const,
};

export function useClassRecap(classId: number, period: Period, date: string) {
  return useQuery({
    queryKey: recapKeys.classRecap(classId, period, date),
    queryFn: ({ signal }) => recapApi.classRecap(classId, period, date, signal),
    enabled: classId > 0,
    placeholderData: keepPreviousData,
  });
}

export function useSchoolRecap(period: Period, date: string, enabled = true) {
  return useQuery({
    queryKey: recapKeys.schoolRecap(period, date),
    queryFn: ({ signal }) => recapApi.schoolRecap(period, date, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useAttendanceCalendar(kind: 'class' | 'student', id: number, month: string) {
  return useQuery({
    queryKey: recapKeys.calendar(kind, id, month),
    queryFn: ({ signal }) => (kind === 'class' ? recapApi.classCalendar(id, month, signal) : recapApi.studentCalendar(id, month, signal)),
    enabled: id > 0,
    placeholderData: keepPreviousData,
  });
}

/** The e-Rapor figures of a class's semester (sakit, izin, alpa in days). */
export function useClassSemester(classId: number, year: number, semester: number, enabled = true) {
  return useQuery({
    queryKey: recapKeys.semester(classId, year, semester),
    queryFn: ({ signal }) => recapApi.classSemester(classId, year, semester, signal),
    enabled: enabled && classId > 0 && year > 0 && semester > 0,
    placeholderData: keepPreviousData,
  });
}

/** The school's day rule (Settings → Sekolah). */
export function useDayRule() {
  return useQuery({ queryKey: recapKeys.dayRule, queryFn: ({ signal }) => recapApi.dayRule(signal) });
}

/** Saves the day rule; every recap is counted again by it. */
export function useSaveDayRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: DayRuleSetting) => recapApi.saveDayRule(s),
    onSuccess: (data) => {
      qc.setQueryData(recapKeys.dayRule, data);
      void qc.invalidateQueries({ queryKey: recapKeys.all });
    },
  });
}
