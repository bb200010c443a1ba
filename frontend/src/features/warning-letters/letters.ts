import { defaultFilters, field, id, positiveInt, writeFilters, type UrlField } from '@/lib/urlFilters';
import type { LetterFilters, LetterStatus, StudentPoints } from './api';

/** The statuses on the letter's line, in order; "withdrawn" is off the line. */
export const LETTER_STEPS: readonly LetterStatus[] = ['draft', 'printed', 'signed', 'delivered'];
export const LETTER_STATUSES: readonly LetterStatus[] = [...LETTER_STEPS, 'withdrawn'];

/** The one step a letter may take next (forward, one at a time); null when there is none. */
export function nextStatus(status: LetterStatus | string): LetterStatus | null {
  const i = LETTER_STEPS.indexOf(status as LetterStatus);
  if (i < 0 || i === LETTER_STEPS.length - 1) return null;
  return LETTER_STEPS[i + 1]!;
}

/** Where a student stands on the way to the next letter, for the progress bar. */
export interface Progress {
  /** 0–100: the share of the way from the reached level's threshold to the next one. */
  percent: number;
  /** No levels are set at all (nothing to progress toward). */
  noLevels: boolean;
  /** Past the last level: the bar is full. */
  pastLast: boolean;
}

/**
 * The bar's fill. The server says how far the next level is (points_to_next) and where it
 * starts (next_level_min_points); the bar runs from 0 to that threshold, so a student at 30
 * of 50 sees 60 %. Past the last level the bar is full; with no levels set it is empty.
 */
export function progressOf(p: Pick<StudentPoints, 'total' | 'level' | 'next_level' | 'next_level_min_points' | 'points_to_next'>): Progress {
  const total = Math.max(0, p.total);
  if (p.next_level === null || p.next_level_min_points === null) {
    const noLevels = p.level === 0;
    return { percent: noLevels ? 0 : 100, noLevels, pastLast: !noLevels };
  }
  const target = p.next_level_min_points;
  if (target <= 0) return { percent: 100, noLevels: false, pastLast: false };
  const percent = Math.min(100, Math.max(0, Math.round((total / target) * 1000) / 10));
  return { percent, noLevels: false, pastLast: false };
}

/** Points still needed for the next level: the server's figure, else computed; null past the last. */
export function pointsToNext(p: Pick<StudentPoints, 'total' | 'next_level_min_points' | 'points_to_next'>): number | null {
  if (p.points_to_next !== null && p.points_to_next !== undefined) return Math.max(0, p.points_to_next);
  if (p.next_level_min_points === null || p.next_level_min_points === undefined) return null;
  return Math.max(0, p.next_level_min_points - p.total);
}

/** A level's short name: the threshold's own ("SP 2"), else "SP <n>". */
export function levelName(level: number, name?: string | null): string {
  return name?.trim() || `SP ${level}`;
}

/** A verification code as printed, in fours: "ABCD-EFGH-JKLM". */
export function groupCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** The PDF's file name on the user's device: "SP1-Budi-Santoso-12.pdf". */
export function letterFileName(l: { id: number; level: number; student_name: string }): string {
  const student = l.student_name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `SP${l.level}-${student || 'siswa'}-${l.id}.pdf`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD day, null for none. */
const dayOrNull = (key: string) => field<string | null>(key, null, (raw) => (DAY.test(raw) ? raw : undefined), (v) => v ?? '');

/** The letters list's filters, as kept in its URL; anything unreadable is "all". */
export const letterFilters = {
  level: id('level'),
  classId: id('class_id'),
  status: field<LetterStatus | null>('status', null, (raw) => LETTER_STATUSES.find((s) => s === raw), (v) => v ?? ''),
  studentId: id('student_id'),
  from: dayOrNull('from'),
  to: dayOrNull('to'),
  /** An academic year's first calendar year (2000–2100). */
  academicYear: field<number | null>(
    'academic_year',
    null,
    (raw) => {
      const n = positiveInt(raw);
      return n !== undefined && n >= 2000 && n <= 2100 ? n : undefined;
    },
    (v) => (v ? String(v) : ''),
  ),
} satisfies { [K in Exclude<keyof LetterFilters, 'page'>]: UrlField<LetterFilters[K]> };

export const DEFAULT_LETTER_FILTERS: LetterFilters = defaultFilters(letterFilters);

/** The URL form of the filters: defaults are left out (a link to the list, e.g. one student's letters). */
export function lettersFiltersToSearch(f: LetterFilters): URLSearchParams {
  return writeFilters(letterFilters, f);
}

export function isFiltered(f: LetterFilters): boolean {
  return !!(f.level || f.classId || f.status || f.studentId || f.from || f.to || f.academicYear);
}
