/** Wire types of the school data (server/internal/api/openapi/school.json). */

export type Grade = 10 | 11 | 12;
export const GRADES: readonly Grade[] = [10, 11, 12];
const GRADE_LABELS: Record<Grade, string> = { 10: 'X', 11: 'XI', 12: 'XII' };

/** 10 → "X"; unknown or null → "". */
export function gradeLabel(grade: number | null | undefined): string {
  return grade === 10 || grade === 11 || grade === 12 ? GRADE_LABELS[grade] : '';
}

export interface Department {
  id: number;
  code: string;
  name: string;
  class_count: number;
  /** Active students. */
  student_count: number;
}

export interface HomeroomTeacher {
  id: number;
  name: string;
  username: string;
}

export interface SchoolClass {
  id: number;
  name: string;
  grade: Grade;
  grade_label: 'X' | 'XI' | 'XII';
  academic_year: string;
  source_id: number | null;
  department_id: number | null;
  department_code: string | null;
  department_name: string | null;
  /** Active students. */
  student_count: number;
  homeroom_teacher: HomeroomTeacher | null;
}

export interface Student {
  id: number;
  /** The student-affairs id. */
  source_id: number;
  nisn: string;
  nis: string;
  full_name: string;
  gender: 'L' | 'P' | '';
  place_of_birth: string;
  date_of_birth: string | null;
  address: string;
  phone: string;
  email: string;
  parent_name: string;
  parent_phone: string;
  photo_path: string;
  active: boolean;
  class_id: number | null;
  class_name: string | null;
  grade: number | null;
  department_id: number | null;
  department_code: string | null;
  department_name: string | null;
  synced_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SyncResult {
  fetched: number;
  skipped: number;
  new: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  relinked: number;
  departments: number;
  departments_new: number;
  classes: number;
  classes_new: number;
  complete: boolean;
  warnings?: string[] | null;
}

export type SyncStatus = 'running' | 'succeeded' | 'failed';
export type SyncPhase = 'fetching' | 'saving' | 'done';

export interface StudentSync {
  id: number;
  status: SyncStatus;
  trigger: 'manual' | 'schedule' | 'demo';
  phase: SyncPhase;
  actor_name: string;
  started_at: string;
  finished_at: string | null;
  pages_done: number;
  pages_total: number;
  fetched: number;
  expected: number;
  progress: number;
  error?: string;
  result: SyncResult | null;
}
