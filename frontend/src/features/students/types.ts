import type { ResponseBody, Schema } from '@/api';

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

export type Department = Schema<'Department'>;

export type HomeroomTeacher = NonNullable<Schema<'Class'>['homeroom_teacher']>;

export type SchoolClass = Schema<'Class'>;

export type ParentContactSource = 'sync' | 'staff';
export type ParentPhoneIssue = '' | 'missing' | 'invalid' | 'not_mobile';

/** PATCH /students/{id}: absent fields keep what is stored; source 'sync' alone hands the contact back. */
export type ParentContactInput = Schema<'ParentContactInput'>;

export type Student = Schema<'Student'>;

export type SyncResult = NonNullable<Schema<'StudentSync'>['result']>;

export type SyncStatus = 'running' | 'succeeded' | 'failed';
export type SyncPhase = 'fetching' | 'saving' | 'done';

export type StudentSync = Schema<'StudentSync'>;

/** GET /students/sync/status. */
export type SyncReadiness = ResponseBody<'/students/sync/status', 'get'>;
