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

export const DEFAULT_LETTER_FILTERS: LetterFilters = { level: null, classId: null, status: null, studentId: null, from: null, to: null, academicYear: null, page: 1 };

function positiveInt(v: string | null): number | null {
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** An academic year's first calendar year (2000–2100), else null. */
function year(v: string | null): number | null {
  const n = positiveInt(v);
  return n !== null && n >= 2000 && n <= 2100 ? n : null;
}

/** The list's filters from the page's URL; anything unreadable falls back to "all". */
export function lettersFiltersFromSearch(sp: URLSearchParams): LetterFilters {
  const status = sp.get('status');
  const from = sp.get('from');
  const to = sp.get('to');
  return {
    level: positiveInt(sp.get('level')),
    classId: positiveInt(sp.get('class_id')),
    status: (LETTER_STATUSES as readonly string[]).includes(status ?? '') ? (status as LetterStatus) : null,
    studentId: positiveInt(sp.get('student_id')),
    from: from && DAY.test(from) ? from : null,
    to: to && DAY.test(to) ? to : null,
    academicYear: year(sp.get('academic_year')),
    page: positiveInt(sp.get('page')) ?? 1,
  };
}

/** The URL form of the filters: defaults are left out. */
export function lettersFiltersToSearch(f: LetterFilters): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.level) sp.set('level', String(f.level));
  if (f.classId) sp.set('class_id', String(f.classId));
  if (f.status) sp.set('status', f.status);
  if (f.studentId) sp.set('student_id', String(f.studentId));
  if (f.from) sp.set('from', f.from);
  if (f.to) sp.set('to', f.to);
  if (f.academicYear) sp.set('academic_year', String(f.academicYear));
  if (f.page > 1) sp.set('page', String(f.page));
  return sp;
}

export function isFiltered(f: LetterFilters): boolean {
  return !!(f.level || f.classId || f.status || f.studentId || f.from || f.to || f.academicYear);
}
