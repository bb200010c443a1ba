import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { AttendanceCalendar, AttendanceRecap, AttendanceSchoolRecap, AttendanceSemester, DayRuleSetting, Period } from './types';

export const recapApi = {
  classRecap: (classId: number, period: Period, date: string, signal?: AbortSignal) =>
    api.get<AttendanceRecap>(`/classes/${classId}/attendance-recap`, { period, date }, signal),
  schoolRecap: (period: Period, date: string, signal?: AbortSignal) => api.get<AttendanceSchoolRecap>('/attendance-recap', { period, date }, signal),
  classCalendar: (classId: number, month: string, signal?: AbortSignal) =>
    api.get<AttendanceCalendar>(`/classes/${classId}/attendance-calendar`, { month }, signal),
  studentCalendar: (studentId: number, month: string, signal?: AbortSignal) =>
    api.get<AttendanceCalendar>(`/students/${studentId}/attendance-calendar`, { month }, signal),
  classSemester: (classId: number, year: number, semester: number, signal?: AbortSignal) =>
    api.get<AttendanceSemester>(`/classes/${classId}/attendance-semester`, { year, semester }, signal),
  dayRule: (signal?: AbortSignal) => api.get<DayRuleSetting>('/settings/attendance-day-rule', undefined, signal),
  saveDayRule: (s: DayRuleSetting) => api.put<DayRuleSetting>('/settings/attendance-day-rule', s),
};

/** The weekly xlsx of one class, named by the server (class and week), headers in the UI's language. */
export function classWeekly(classId: number, date: string): Promise<DownloadedFile> {
  return apiDownload(`/classes/${classId}/attendance-recap/weekly.xlsx`, { date });
}

/** The weekly xlsx of every class the user may see, one sheet each. */
export function schoolWeekly(date: string): Promise<DownloadedFile> {
  return apiDownload('/attendance-recap/weekly.xlsx', { date });
}

/** A class's semester in days per student (e-Rapor's sakit, izin, alpa), named by the server. */
export function classSemesterXLSX(classId: number, year: number, semester: number): Promise<DownloadedFile> {
  return apiDownload(`/classes/${classId}/attendance-semester.xlsx`, { year, semester });
}

/** The same for every class the user may see: one workbook, a sheet per class. */
export function schoolSemesterXLSX(year: number, semester: number): Promise<DownloadedFile> {
  return apiDownload('/attendance-semester.xlsx', { year, semester });
}
