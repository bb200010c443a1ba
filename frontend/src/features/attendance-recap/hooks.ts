import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { recapApi } from './api';
import type { Period } from './types';

/** Query keys start with 'attendance-recap': the class form refreshes them all after a save. */
export const recapKeys = {
  all: ['attendance-recap'] as const,
  classRecap: (classId: number, period: Period, date: string) => ['attendance-recap', 'class', classId, period, date] as const,
  schoolRecap: (period: Period, date: string) => ['attendance-recap', 'school', period, date] as const,
  /** One key per month: moving the calendar fetches only that month. */
  calendar: (kind: 'class' | 'student', id: number, month: string) => ['attendance-recap', 'calendar', kind, id, month] as const,
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
