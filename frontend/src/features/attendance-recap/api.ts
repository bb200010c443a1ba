import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { AttendanceCalendar, AttendanceRecap, AttendanceSchoolRecap, Period } from './types';

export const recapApi = {
  classRecap: (classId: number, period: Period, date: string, signal?: AbortSignal) =>
    api.get<AttendanceRecap>(`/classes/${classId}/attendance-recap`, { period, date }, signal),
  schoolRecap: (period: Period, date: string, signal?: AbortSignal) => api.get<AttendanceSchoolRecap>('/attendance-recap', { period, date }, signal),
  classCalendar: (classId: number, month: string, signal?: AbortSignal) =>
    api.get<AttendanceCalendar>(`/classes/${classId}/attendance-calendar`, { month }, signal),
  studentCalendar: (studentId: number, month: string, signal?: AbortSignal) =>
    api.get<AttendanceCalendar>(`/students/${studentId}/attendance-calendar`, { month }, signal),
};

/** The weekly xlsx of one class, named by the server (class and week), headers in the UI's language. */
export function classWeekly(classId: number, date: string): Promise<DownloadedFile> {
  return apiDownload(`/classes/${classId}/attendance-recap/weekly.xlsx`, { date });
}

/** The weekly xlsx of every class the user may see, one sheet each. */
export function schoolWeekly(date: string): Promise<DownloadedFile> {
  return apiDownload('/attendance-recap/weekly.xlsx', { date });
}
