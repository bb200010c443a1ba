/** Wire types of the school data (server/internal/api/openapi/school.json). */

/** A class's grade: primary (SD) 1–6, junior high (SMP) 7–9, senior high (SMA/SMK) 10–12. */
export type Grade = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;
export const GRADES: readonly Grade[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/** Schools write grades in Roman numerals at every level: 7 → "VII", 10 → "X"; unknown or null → "". */
export function gradeLabel(grade: number | null | undefined): string {
  return grade && Number.isInteger(grade) && grade >= 1 && grade <= 12 ? (ROMAN[grade] ?? '') : '';
}

/** "VII", "7" or "kelas 7" → 7; anything else null. */
export function parseGrade(v: string | null | undefined): Grade | null {
  const s = (v ?? '').trim().toUpperCase().replace(/^KELAS\s*/, '');
  if (!s) return null;
  const i = ROMAN.indexOf(s);
  const n = i > 0 ? i : /^\d+$/.test(s) ? Number(s) : NaN;
  return (GRADES as readonly number[]).includes(n) ? (n as Grade) : null;
}

/** The grades the school's classes have, ascending: the grade filter offers only those. */
export function gradesOf(classes: readonly { grade: number }[]): Grade[] {
  return [...new Set(classes.map((c) => c.grade))].filter((g): g is Grade => (GRADES as readonly number[]).includes(g)).sort((a, b) => a - b);
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
  /** I–XII. */
  grade_label: string;
  /** School level: sd (1–6), smp (7–9), sma (10–12). */
  level: 'sd' | 'smp' | 'sma';
  academic_year: string;
  source_id: number | null;
  department_id: number | null;
  department_code: string | null;
  department_name: string | null;
  /** Active students. */
  student_count: number;
  homeroom_teacher: HomeroomTeacher | null;
}

export type ParentContactSource = 'sync' | 'staff';
export type ParentPhoneIssue = '' | 'missing' | 'invalid' | 'not_mobile';

/** PATCH /students/{id}: absent fields keep what is stored; source 'sync' alone hands the contact back. */
export interface ParentContactInput {
  parent_name?: string;
  parent_phone?: string;
  parent_contact_source?: ParentContactSource;
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
  /** sync: the parent contact follows student affairs; staff: edited in Tatib (syncs keep it). */
  parent_contact_source: ParentContactSource;
  /** What student affairs last said (shown beside a staff edit). */
  synced_parent_name: string;
  synced_parent_phone: string;
  /** Why parent_phone cannot receive a WhatsApp message; '' when it can. */
  parent_phone_issue: ParentPhoneIssue;
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

/** GET /students/sync/status. */
export interface SyncReadiness {
  configured: boolean;
  /** Daily "HH:MM" (Jakarta), or "". */
  schedule: string;
}
