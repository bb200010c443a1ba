import { api } from '@/api/client';
import type { AttendanceEntry, AttendanceForm, SaveAttendanceResponse } from './types';

export const attendanceApi = {
  form: (classId: number, date: string, signal?: AbortSignal) => api.get<AttendanceForm>(`/classes/${classId}/attendance/${date}`, undefined, signal),
  /** Upserts the non-belum entries in one transaction; belum entries are skipped, nothing is deleted. */
  save: (classId: number, date: string, entries: AttendanceEntry[]) =>
    api.put<SaveAttendanceResponse>(`/classes/${classId}/attendance/${date}`, { entries }),
};
