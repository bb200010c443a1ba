import type { Schema } from '@/api';

/** Wire types of GET /reports/violation-recap (shared/api/reports.go). */
export type RecapPeriodKind = 'range' | 'month' | 'semester' | 'academic_year';
export type RecapScopeKind = 'school' | 'class' | 'grade' | 'department';

export type RecapPeriod = Schema<'RecapPeriod'>;

export type RecapScope = Schema<'RecapScope'>;

export type RecapCategory = Schema<'RecapCategory'>;

export type RecapClassRow = Schema<'RecapClassRow'>;

export type RecapStudentRow = Schema<'RecapStudentRow'>;

export type RecapDetailRow = Schema<'RecapDetailRow'>;

export type ViolationRecap = Schema<'ViolationRecap'>;

/** A count of cases under a key (a category id, a stage, a classification; '' is not classified yet). */
export type RecapCaseCount = RecapCases['by_category'][number];

/** The period's cases counted — never a case, a title or a name. */
export type RecapCases = Schema<'RecapCases'>;
