import { api } from '@/api/client';
import type { AttendanceEntry, AttendanceForm, AttendancePreview, ResolveConflictsRequest, SaveAttendanceResponse } from './types';

export const attendanceApi = {
  form: (classId: number, date: string, signal?: AbortSignal) => api.get<AttendanceForm>(`/classes/${classId}/attendance/${date}`, undefined, signal),
  /**
   * Upserts the non-belum entries in one transaction; belum entries are skipped, nothing is
   * deleted. Without confirm, a save that changes cells others set (the journal, a kiosk,
   * another person) is refused with 409 attendance.confirm_required.
   */
  save: (classId: number, date: string, entries: AttendanceEntry[], confirm = false) =>
    api.put<SaveAttendanceResponse>(`/classes/${classId}/attendance/${date}`, { entries, confirm }),
  /** What the same save would change (cells by who set them, violations, letters); nothing stored. */
  preview: (classId: number, date: string, entries: AttendanceEntry[]) =>
    api.post<AttendancePreview>(`/classes/${classId}/attendance/${date}/preview`, { entries }),
  /** Keeps the people's entries the journal disagreed with, or stores the journal's as the caller's. */
  resolveConflicts: (classId: number, date: string, body: ResolveConflictsRequest) =>
    api.post<SaveAttendanceResponse>(`/classes/${classId}/attendance/${date}/journal-conflicts`, body),
};
