import type { Schema } from '@/api';

/** Wire types of the recaps and calendars, mirroring shared/api/attendance.go. */
export type AttendanceStatus = 'H' | 'S' | 'I' | 'A' | 'T';
export const STATUSES: readonly AttendanceStatus[] = ['H', 'S', 'I', 'A', 'T'];

export type Period = 'daily' | 'weekly' | 'monthly' | 'semester';
export const PERIODS: readonly Period[] = ['daily', 'weekly', 'monthly', 'semester'];

/** How a student's day status follows from its filled lesson hours (GET /settings/attendance-day-rule). */
export type DayRule = 'majority' | 'any_alpha';
export const DAY_RULES: readonly DayRule[] = ['majority', 'any_alpha'];

export type DayRuleSetting = Schema<'AttendanceDayRuleSetting'>;

/** Hours (or students) per status. */
export type AttendanceCounts = Schema<'AttendanceCounts'>;

export type AttendanceRecapStudent = Schema<'AttendanceRecapStudent'>;

/** One date: students per day status; students + unrecorded = the class (or the school). */
export type AttendanceRecapDay = Schema<'AttendanceRecapDay'>;

export type AttendanceRecap = Schema<'AttendanceRecap'>;

export type AttendanceCalendarDay = Schema<'AttendanceCalendarDay'>;

export type AttendanceCalendar = Schema<'AttendanceCalendar'>;

export type AttendanceRecapClass = Schema<'AttendanceRecapClass'>;

export type AttendanceSchoolRecap = Schema<'AttendanceSchoolRecap'>;

/** One student of the semester hand-off: e-Rapor's sakit, izin, alpa in days, and what checks them. */
export type AttendanceSemesterStudent = Schema<'AttendanceSemesterStudent'>;

/** GET /classes/{id}/attendance-semester. */
export type AttendanceSemester = Schema<'AttendanceSemester'>;

/** The count of status s in c. */
export function countOf(c: AttendanceCounts, s: AttendanceStatus): number {
  return c[s.toLowerCase() as keyof AttendanceCounts];
}
