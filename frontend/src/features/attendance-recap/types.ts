/** Wire types of the recaps and calendars, mirroring shared/api/attendance.go. */

export type AttendanceStatus = 'H' | 'S' | 'I' | 'A' | 'T';
export const STATUSES: readonly AttendanceStatus[] = ['H', 'S', 'I', 'A', 'T'];

export type Period = 'daily' | 'weekly' | 'monthly' | 'semester';
export const PERIODS: readonly Period[] = ['daily', 'weekly', 'monthly', 'semester'];

/** How a student's day status follows from its filled lesson hours (GET /settings/attendance-day-rule). */
export type DayRule = 'majority' | 'any_alpha';
export const DAY_RULES: readonly DayRule[] = ['majority', 'any_alpha'];

export interface DayRuleSetting {
  rule: DayRule;
  updated_at?: string;
}

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
  /** Daily and weekly: the day status of each day of `dates` ("" = nothing stored). */
  day_statuses?: string[];
  /** Hours per status over the period. */
  counts: AttendanceCounts;
  /** Days per day status over the period. */
  day_counts: AttendanceCounts;
  days_recorded: number;
  /** (H + T) / stored hours × 100, one decimal; null when nothing is stored. */
  percentage: number | null;
}

/** One date: students per day status; students + unrecorded = the class (or the school). */
export interface AttendanceRecapDay {
  date: string;
  students: AttendanceCounts;
  recorded: number;
  unrecorded: number;
}

export interface AttendanceRecap {
  period: Period;
  class_id: number;
  class_name: string;
  from: string;
  to: string;
  lesson_hours: number;
  /** Semester period: the academic year's first calendar year (2026 = 2026/2027) and 1 or 2. */
  year?: number;
  semester?: number;
  day_rule: DayRule;
  dates: string[];
  students: AttendanceRecapStudent[];
  summary: AttendanceRecapDay[];
  /** Students with at least one hour of each status over the period. */
  students_with: AttendanceCounts;
  hours: AttendanceCounts;
  /** Student-days per day status; with days_unrecorded they are the class × school_days. */
  days: AttendanceCounts;
  school_days: number;
  days_unrecorded: number;
}

export interface AttendanceCalendarDay {
  date: string;
  /** Class: "complete" | "partial"; student: the day status by the school's day rule. */
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
  days: AttendanceCounts;
  school_days: number;
  days_unrecorded: number;
}

export interface AttendanceSchoolRecap {
  period: Period;
  from: string;
  to: string;
  year?: number;
  semester?: number;
  day_rule: DayRule;
  classes: AttendanceRecapClass[];
  summary: AttendanceRecapDay[];
  students_with: AttendanceCounts;
  hours: AttendanceCounts;
  /** Active students of the classes listed. */
  size: number;
  days: AttendanceCounts;
  days_unrecorded: number;
}

/** One student of the semester hand-off: e-Rapor's sakit, izin, alpa in days, and what checks them. */
export interface AttendanceSemesterStudent {
  no: number;
  id: number;
  nisn: string;
  nis: string;
  full_name: string;
  sakit: number;
  izin: number;
  alpa: number;
  hadir: number;
  terlambat: number;
  days_recorded: number;
  days_unrecorded: number;
  hours: AttendanceCounts;
}

/** GET /classes/{id}/attendance-semester. */
export interface AttendanceSemester {
  class_id: number;
  class_name: string;
  homeroom_teacher: string;
  year: number;
  academic_year: string;
  semester: number;
  from: string;
  to: string;
  day_rule: DayRule;
  school_days: number;
  students: AttendanceSemesterStudent[];
}

/** The count of status s in c. */
export function countOf(c: AttendanceCounts, s: AttendanceStatus): number {
  return c[s.toLowerCase() as keyof AttendanceCounts];
}
