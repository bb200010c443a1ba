import type { CaseCounts } from '@/features/cases/api';
import type { Source } from '@/features/violation-source/source';

/** Wire types of GET /dashboard and GET /dashboard/violation-calendar (shared/api/dashboard.go). */

export interface DashboardCount {
  count: number;
  /** The previous period's number up to the same point; absent where there is none. */
  previous?: number;
  /** The app path and query of the list this figure summarises. */
  link: string;
}

export interface DashboardCategory {
  id: number;
  name: string;
  colour: string;
  count: number;
  link: string;
}

export interface DashboardType {
  id: number;
  name: string;
  category_name: string;
  count: number;
  points: number;
  link: string;
}

export interface DashboardClassPoints {
  id: number;
  name: string;
  points: number;
  count: number;
  link: string;
}

export interface DashboardNearSP {
  student_id: number;
  name: string;
  class_name: string;
  points: number;
  next_level: number;
  next_level_name: string;
  points_to_go: number;
  link: string;
}

export interface DashboardWeek {
  /** Its Monday, YYYY-MM-DD. */
  week: string;
  count: number;
  link: string;
}

export interface DashboardViolations {
  today: DashboardCount;
  week: DashboardCount;
  month: DashboardCount;
  by_category: DashboardCategory[];
  top_types: DashboardType[];
  classes_by_points: DashboardClassPoints[];
  nearest_sp: DashboardNearSP[];
  trend: DashboardWeek[];
}

export interface DashboardCaseload {
  /** What it counts: behaviour while homeroom teachers follow up attendance, all when the counselors do. */
  source: Source;
  unhandled: DashboardCount;
  in_progress: DashboardCount;
  follow_ups_today: DashboardCount;
  follow_ups_overdue: DashboardCount;
}

export const LETTER_STATUSES = ['draft', 'printed', 'signed', 'delivered', 'withdrawn'] as const;
export type LetterStatus = (typeof LETTER_STATUSES)[number];

export interface DashboardLetters {
  total: DashboardCount;
  by_status: { status: LetterStatus; count: number; link: string }[];
}

export interface AttendanceCounts {
  h: number;
  s: number;
  i: number;
  a: number;
  t: number;
}

export interface DashboardAttendance {
  date: string;
  /** Unique students with any hour of each status today. */
  students: AttendanceCounts;
  recorded: number;
  total: number;
  link: string;
  /** A homeroom teacher's students with nothing stored today; null for everyone else. */
  not_filled: DashboardCount | null;
}

export interface EarlyWarningCounts {
  near_level: number;
  absent_streak: number;
  late_repeat: number;
  repeat_type: number;
  follow_up_due: number;
  total: number;
}

export interface Dashboard {
  today: string;
  month_from: string;
  month_to: string;
  scope: 'school' | 'class';
  class: { id: number; name: string } | null;
  /** The source the violation figures and early-warning counts were taken with; every link carries it. */
  source: Source;
  /** Who follows up automatic attendance violations (the school's setting). */
  follow_up_owner: 'homeroom_teacher' | 'counselor';
  /** Each section is null when the caller may not open the list it summarises. */
  violations: DashboardViolations | null;
  caseload: DashboardCaseload | null;
  /** A homeroom teacher's class's open attendance violations, while that follow-up is theirs. */
  attendance_follow_up: { unhandled: DashboardCount; in_progress: DashboardCount } | null;
  letters: DashboardLetters | null;
  attendance: DashboardAttendance | null;
  early_warnings: { counts: EarlyWarningCounts; link: string } | null;
  /** Parent messages that failed to send; a number only for callers with parent_messages.manage. */
  parent_messages_failed?: number | null;
  /** Cases counted by category, stage and class; only for callers with cases.view_counts. */
  cases?: CaseCounts | null;
  /** This month's and the unverified achievements in the scope (achievements.view). */
  achievements?: { month: DashboardCount; awaiting: DashboardCount } | null;
}

export interface ViolationCalendarDay {
  date: string;
  count: number;
  link: string;
}

export interface ViolationCalendar {
  month: string;
  source: Source;
  days: ViolationCalendarDay[];
  max: number;
  total: number;
  prev: string;
  next: string;
}
