import { api } from '@/api/client';
import type { PageMeta } from '@/api/types';

/** Wire types: shared/api/earlywarnings.go. */

export type EarlyWarningKind = 'follow_up_due' | 'absent_streak' | 'repeat_type' | 'near_level';

/** The order the page shows the kinds in (the server's too). */
export const EARLY_WARNING_KINDS: EarlyWarningKind[] = ['follow_up_due', 'absent_streak', 'repeat_type', 'near_level'];

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
  dates: string[];
  violation_id: number | null;
  occurred_on: string | null;
  follow_up_on: string | null;
  overdue_days: number | null;
  action: EarlyWarningAction;
}

export interface EarlyWarningCounts {
  near_level: number;
  absent_streak: number;
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
  latest_school_day: string | null;
}

export const EARLY_WARNINGS_PER_PAGE = 20;

export const earlyWarningsApi = {
  list: (p: { kind: EarlyWarningKind | null; classId: number | null; page: number }, signal?: AbortSignal) =>
    api.get<EarlyWarningPage>('/early-warnings', { kind: p.kind, class_id: p.classId, page: p.page, per_page: EARLY_WARNINGS_PER_PAGE }, signal),
};
