import { api } from '@/api/client';
import type { PageMeta } from '@/api/types';
import type { CaseSummary } from '@/features/cases/api';
import type { Source } from '@/features/violation-source/source';

/** Wire types: shared/api/earlywarnings.go. */

export type EarlyWarningKind = 'follow_up_due' | 'absent_streak' | 'late_repeat' | 'repeat_type' | 'near_level';

/** The order the page shows the kinds in (the server's too); each source shows some (EARLY_WARNING_KINDS_OF). */
export const EARLY_WARNING_KINDS: EarlyWarningKind[] = ['follow_up_due', 'absent_streak', 'late_repeat', 'repeat_type', 'near_level'];

export interface EarlyWarningAction {
  kind: 'record_handling' | 'open_student';
  /** The app page that takes the action: /violations/{id} or /students/{id}. */
  path: string;
}

export interface EarlyWarning {
  kind: EarlyWarningKind;
  student_id: number;
  student_name: string;
  student_nis: string;
  student_nisn: string;
  class_id: number | null;
  class_name: string;
  points: number | null;
  next_level: number | null;
  next_level_name: string;
  points_to_next: number | null;
  streak_from: string | null;
  streak_to: string | null;
  streak_days: number | null;
  ongoing: boolean;
  type_id: number | null;
  type_name: string;
  /** repeat_type: the days of type_id's violations; late_repeat: the late days; oldest first. */
  dates: string[];
  /** repeat_type: every type the student repeated, most often first. */
  types: { type_id: number; type_name: string; times: number }[];
  /** late_repeat: late days within the latest window_days school days (window_from..window_to). */
  late_days: number | null;
  window_days: number | null;
  window_from: string | null;
  window_to: string | null;
  violation_id: number | null;
  occurred_on: string | null;
  follow_up_on: string | null;
  overdue_days: number | null;
  /** follow_up_due: how many of the student's follow-ups are due (the row shows the most overdue). */
  follow_ups: number | null;
  action: EarlyWarningAction;
}

export interface EarlyWarningCounts {
  near_level: number;
  absent_streak: number;
  late_repeat: number;
  repeat_type: number;
  follow_up_due: number;
  /** Distinct students. */
  total: number;
}

export interface EarlyWarningPage {
  data: EarlyWarning[];
  meta: PageMeta;
  counts: EarlyWarningCounts;
  threshold: number;
  source: Source;
  kinds: EarlyWarningKind[];
  rules: { absent_streak_days: number; late_times: number; late_school_days: number; repeat_times: number; repeat_days: number };
  latest_school_day: string | null;
  /** Cases the caller may see whose current stage is overdue (cases.view), at most 20. */
  case_stages_overdue: CaseSummary[];
  /** How many cases are overdue school-wide (cases.view_counts), else null. */
  case_stages_overdue_count: number | null;
}

export const EARLY_WARNINGS_PER_PAGE = 20;

export const earlyWarningsApi = {
  list: (p: { source: Source; kind: EarlyWarningKind | null; classId: number | null; page: number }, signal?: AbortSignal) =>
    api.get<EarlyWarningPage>(
      '/early-warnings',
      { source: p.source, kind: p.kind, class_id: p.classId, page: p.page, per_page: EARLY_WARNINGS_PER_PAGE },
      signal,
    ),
};
