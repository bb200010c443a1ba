import { describe, expect, it } from 'vitest';
import { academicYear, chipsOf, recapChips, semesterNeighbour, sumOf } from './days';
import type { AttendanceRecap } from './types';

const zero = { h: 0, s: 0, i: 0, a: 0, t: 0 };

function recap(over: Partial<AttendanceRecap>): AttendanceRecap {
  return {
    period: 'daily',
    class_id: 1,
    class_name: 'X RPL 1',
    from: '2026-11-02',
    to: '2026-11-02',
    lesson_hours: 10,
    day_rule: 'majority',
    dates: ['2026-11-02'],
    students: [1, 2, 3].map((id) => ({ id, nisn: '', nis: '', full_name: `S${id}`, counts: zero, day_counts: zero, days_recorded: 0, percentage: null })),
    summary: [],
    students_with: zero,
    hours: zero,
    days: zero,
    school_days: 0,
    days_unrecorded: 0,
    ...over,
  };
}

describe('chips', () => {
  it('lists every status then belum, adding up to the whole', () => {
    const c = chipsOf({ h: 30, s: 2, i: 1, a: 1, t: 0 }, 2);
    expect(c.map((x) => x.key)).toEqual(['H', 'S', 'I', 'A', 'T', 'belum']);
    expect(c.reduce((n, x) => n + x.n, 0)).toBe(36);
  });

  it('counts a day in students and a period in student-days', () => {
    const day = recapChips(recap({ summary: [{ date: '2026-11-02', students: { h: 1, s: 0, i: 0, a: 1, t: 0 }, recorded: 2, unrecorded: 1 }] }));
    expect(day.perDay).toBe(true);
    expect(day.total).toBe(3);
    expect(day.chips.reduce((n, x) => n + x.n, 0)).toBe(3);
    // A day before anything is stored: the whole class is belum.
    expect(recapChips(recap({ summary: [] })).chips.at(-1)).toEqual({ key: 'belum', n: 3 });
    const week = recapChips(recap({ period: 'weekly', days: { h: 10, s: 1, i: 0, a: 1, t: 0 }, school_days: 5, days_unrecorded: 3 }));
    expect(week.perDay).toBe(false);
    expect(week.total).toBe(15);
    expect(week.chips.reduce((n, x) => n + x.n, 0)).toBe(15);
    expect(sumOf({ h: 1, s: 2, i: 3, a: 4, t: 5 })).toBe(15);
  });
});

describe('semesters', () => {
  it('names the academic year by its two calendar years', () => {
    expect(academicYear(2026)).toBe('2026/2027');
  });

  it('moves to the semester before or after across the year and a leap day', () => {
    expect(semesterNeighbour('2026-07-01', '2026-12-31', 1)).toBe('2027-01-01');
    expect(semesterNeighbour('2026-07-01', '2026-12-31', -1)).toBe('2026-06-30');
    expect(semesterNeighbour('2028-02-29', '2028-08-30', -1)).toBe('2028-02-28');
  });
});
