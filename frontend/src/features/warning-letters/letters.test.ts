import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LETTER_FILTERS,
  isFiltered,
  letterFileName,
  lettersFiltersToSearch,
  groupCode,
  levelName,
  nextStatus,
  pointsToNext,
  progressOf,
  letterFilters,
} from './letters';
import { readFilters } from '@/lib/urlFilters';

const lettersFiltersFromSearch = (sp: URLSearchParams) => readFilters(letterFilters, sp);

describe('nextStatus', () => {
  it('steps forward one at a time', () => {
    expect(nextStatus('draft')).toBe('printed');
    expect(nextStatus('printed')).toBe('signed');
    expect(nextStatus('signed')).toBe('delivered');
  });
  it('has no step after delivered, for a withdrawn letter, or an unknown status', () => {
    expect(nextStatus('delivered')).toBeNull();
    expect(nextStatus('withdrawn')).toBeNull();
    expect(nextStatus('lost')).toBeNull();
  });
});

const pts = (total: number, level: number, next: number | null, nextMin: number | null, toNext: number | null) => ({
  total,
  level,
  next_level: next,
  next_level_min_points: nextMin,
  points_to_next: toNext,
});

describe('progressOf', () => {
  it('runs from 0 to the next threshold', () => {
    expect(progressOf(pts(30, 0, 1, 50, 20))).toEqual({ percent: 60, noLevels: false, pastLast: false });
    expect(progressOf(pts(0, 0, 1, 50, 50)).percent).toBe(0);
    expect(progressOf(pts(60, 1, 2, 100, 40)).percent).toBe(60);
  });
  it('is empty with no levels set', () => {
    expect(progressOf(pts(25, 0, null, null, null))).toEqual({ percent: 0, noLevels: true, pastLast: false });
  });
  it('is full past the last level', () => {
    expect(progressOf(pts(250, 3, null, null, null))).toEqual({ percent: 100, noLevels: false, pastLast: true });
  });
  it('stays within 0–100 for odd figures', () => {
    expect(progressOf(pts(120, 1, 2, 100, 0)).percent).toBe(100);
    expect(progressOf(pts(-5, 0, 1, 50, 55)).percent).toBe(0);
    expect(progressOf(pts(10, 0, 1, 0, 0)).percent).toBe(100);
    expect(progressOf(pts(1, 0, 1, 3, 2)).percent).toBe(33.3);
  });
});

describe('pointsToNext', () => {
  it("takes the server's figure, else computes it, never below 0", () => {
    expect(pointsToNext(pts(30, 0, 1, 50, 20))).toBe(20);
    expect(pointsToNext(pts(30, 0, 1, 50, null))).toBe(20);
    expect(pointsToNext(pts(60, 0, 1, 50, null))).toBe(0);
    expect(pointsToNext(pts(300, 3, null, null, null))).toBeNull();
  });
});

describe('levelName', () => {
  it("uses the threshold's name, else SP n", () => {
    expect(levelName(2, 'SP 2 (Panggilan)')).toBe('SP 2 (Panggilan)');
    expect(levelName(2, '')).toBe('SP 2');
    expect(levelName(3, undefined)).toBe('SP 3');
  });
});

describe('letterFileName', () => {
  it('is safe on every file system', () => {
    expect(letterFileName({ id: 12, level: 1, student_name: 'Budi Santoso' })).toBe('SP1-Budi-Santoso-12.pdf');
    expect(letterFileName({ id: 3, level: 2, student_name: "Siti Nur'aini / Ádé" })).toBe('SP2-Siti-Nur-aini-Ade-3.pdf');
    expect(letterFileName({ id: 4, level: 1, student_name: '***' })).toBe('SP1-siswa-4.pdf');
  });
});

describe('letter filters in the URL', () => {
  it('round-trips and leaves defaults out', () => {
    const f = { level: 2, classId: 5, status: 'printed' as const, studentId: 9, from: '2026-07-01', to: '2026-07-31', academicYear: 2025, page: 3 };
    expect(lettersFiltersFromSearch(lettersFiltersToSearch(f))).toEqual(f);
    expect(lettersFiltersToSearch(DEFAULT_LETTER_FILTERS).toString()).toBe('');
    expect(isFiltered(DEFAULT_LETTER_FILTERS)).toBe(false);
    expect(isFiltered(f)).toBe(true);
    expect(isFiltered({ ...DEFAULT_LETTER_FILTERS, academicYear: 2025 })).toBe(true);
  });
  it('ignores what it cannot read', () => {
    expect(lettersFiltersFromSearch(new URLSearchParams('level=x&status=lost&from=1%2F7&page=-1&academic_year=1999'))).toEqual(DEFAULT_LETTER_FILTERS);
    expect(lettersFiltersFromSearch(new URLSearchParams('academic_year=2025%2F2026')).academicYear).toBeNull();
  });
});

describe('groupCode', () => {
  it('prints a verification code in fours', () => {
    expect(groupCode('ABCDEFGHJKLM')).toBe('ABCD-EFGH-JKLM');
    expect(groupCode('')).toBe('');
  });
});
