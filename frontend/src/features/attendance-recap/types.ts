/** Wire types of the recaps and calendars, mirroring shared/api/attendance.go. */

export type AttendanceStatus = 'H' | 'S' | 'I' | 'A' | 'T';
export const STATUSES: readonly AttendanceStatus[] = ['H', 'S', 'I', 'A', 'T'];

export type Period = 'daily' | 'weekly' | 'monthly';
export const PERIODS: readonly Period[] = ['daily', 'weekly', 'monthly'];

/** Hours (or students) per status. */
export interface AttendanceCounts {
  h: number;
  s: number;
  i: number;
  a: number;
  t: number;
}

export interface AttendanceRecapStudent {
  id: number;
  nisn: string;
  nis: string;
  full_name: string;
  /** Daily: status per lesson hour 1..N, "" for belum. */
  hours?: string[];
  /** Weekly: hour counts per day of `dates`. */
  days?: AttendanceCounts[];
  counts: AttendanceCounts;
  days_recorded: number;
  /** (H + T) / stored hours × 100, one decimal; null when nothing is stored. */
  percentage: number | null;
}

/** One date: unique students per status (two A hours are one student). */
export interface AttendanceRecapDay {
  date: string;
  students: AttendanceCounts;
  recorded: number;
}

export interface AttendanceRecap {
  period: Period;
  class_id: number;
  class_name: string;
  from: string;
  to: string;
  lesson_hours: number;
  dates: string[];
  students: AttendanceRecapStudent[];
  summary: AttendanceRecapDay[];
  students_with: AttendanceCounts;
  hours: AttendanceCounts;
}

export interface AttendanceCalendarDay {
  date: string;
  /** Class: "complete" | "partial"; student: the worst status (A > T > S > I > H). */
  state: string;
  hours: AttendanceCounts;
  students: AttendanceCounts;
  recorded: number;
}

export interface AttendanceCalendar {
  month: string;
  class_id?: number;
  class_name?: string;
  student_id?: number;
  class_size?: number;
  /** Only dates with stored attendance. */
  days: AttendanceCalendarDay[];
  prev: string;
  next: string;
}

export interface AttendanceRecapClass {
  class_id: number;
  class_name: string;
  size: number;
  hours: AttendanceCounts;
  students_with: AttendanceCounts;
  percentage: number | null;
}

export interface AttendanceSchoolRecap {
  period: Period;
  from: string;
  to: string;
  classes: AttendanceRecapClass[];
  summary: AttendanceRecapDay[];
  students_with: AttendanceCounts;
  hours: AttendanceCounts;
}

/** The count of status s in c. */
export function countOf(c: AttendanceCounts, s: AttendanceStatus): number {
  return c[s.toLowerCase() as keyof AttendanceCounts];
}
