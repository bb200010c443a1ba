/** Wire types of GET /reports/violation-recap (shared/api/reports.go). */
export type RecapPeriodKind = 'range' | 'month' | 'semester' | 'academic_year';
export type RecapScopeKind = 'school' | 'class' | 'grade' | 'department';

export interface RecapPeriod {
  kind: RecapPeriodKind;
  from: string;
  to: string;
  month?: string;
  academic_year?: number;
  semester?: number;
}

export interface RecapScope {
  kind: RecapScopeKind;
  class_id?: number;
  class_name?: string;
  grade?: number;
  department_id?: number;
  department_name?: string;
}

export interface RecapCategory {
  id: number;
  name: string;
  colour: string;
}

export interface RecapClassRow {
  class_id: number | null;
  class_name: string;
  violations: number;
  students: number;
  points: number;
  by_category: number[];
}

export interface RecapStudentRow {
  student_id: number;
  full_name: string;
  nis: string;
  class_name: string;
  violations: number;
  points: number;
  sp_level: number;
  sp_name: string;
  /** The academic year's points up to the period's end: violations (gross), policy reductions, net. */
  year_gross: number;
  year_reduced: number;
  year_total: number;
}

export interface RecapDetailRow {
  id: number;
  occurred_on: string;
  student_id: number;
  student_name: string;
  class_name: string;
  type_name: string;
  category_name: string;
  description: string;
  points: number;
  handling_status: 'unhandled' | 'in_progress' | 'resolved';
}

export interface ViolationRecap {
  period: RecapPeriod;
  scope: RecapScope;
  /** The violations counted: behaviour, attendance or all. */
  source: 'behaviour' | 'attendance' | 'all';
  totals: { violations: number; students: number; points: number };
  categories: RecapCategory[];
  classes: RecapClassRow[];
  students: RecapStudentRow[];
  details: RecapDetailRow[];
  detail_offset: number;
  detail_limit: number;
  generated_at: string;
  /** The period's cases, counted: for cases.view_counts on the whole school's report only, else null. */
  cases: RecapCases | null;
}

/** A count of cases under a key (a category id, a stage, a classification; '' is not classified yet). */
export interface RecapCaseCount {
  key: string;
  label: string;
  count: number;
}

/** The period's cases counted — never a case, a title or a name. */
export interface RecapCases {
  total: number;
  /** Cases with a referral to the Pokja recorded. */
  referred: number;
  by_category: RecapCaseCount[];
  by_stage: RecapCaseCount[];
  by_classification: RecapCaseCount[];
}
