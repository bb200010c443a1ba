import type { Schema } from '@/api';

/** Wire types of GET /dashboard and GET /dashboard/violation-calendar (shared/api/dashboard.go). */

export type DashboardCount = Schema<'DashboardCount'>;

export type DashboardCategory = DashboardViolations['by_category'][number];

export type DashboardType = DashboardViolations['top_types'][number];

export type DashboardClassPoints = DashboardViolations['classes_by_points'][number];

export type DashboardNearSP = DashboardViolations['nearest_sp'][number];

export type DashboardWeek = DashboardViolations['trend'][number];

export type DashboardViolations = NonNullable<Schema<'Dashboard'>['violations']>;

export type DashboardCaseload = NonNullable<Schema<'Dashboard'>['caseload']>;

export const LETTER_STATUSES = ['draft', 'printed', 'signed', 'delivered', 'withdrawn'] as const;
export type LetterStatus = (typeof LETTER_STATUSES)[number];

export type DashboardLetters = NonNullable<Schema<'Dashboard'>['letters']>;

export type AttendanceCounts = Schema<'AttendanceCounts'>;

export type DashboardAttendance = NonNullable<Schema<'Dashboard'>['attendance']>;

export type EarlyWarningCounts = Schema<'EarlyWarningCounts'>;

export type Dashboard = Schema<'Dashboard'>;

export type ViolationCalendarDay = Schema<'ViolationCalendar'>['days'][number];

export type ViolationCalendar = Schema<'ViolationCalendar'>;
