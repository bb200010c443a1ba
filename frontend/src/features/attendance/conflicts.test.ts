import { describe, expect, it } from 'vitest';
import { formatRanges, groupConflicts, hourRanges } from './conflicts';
import type { AttendanceForm, JournalConflict } from './types';

describe('hour ranges', () => {
  it('joins consecutive hours, in any order, once each', () => {
    expect(hourRanges([3, 1, 2, 5, 2])).toEqual([
      [1, 3],
      [5, 5],
    ]);
    expect(hourRanges([])).toEqual([]);
    expect(formatRanges([1, 2, 3, 5, 7, 8])).toBe('1–3, 5, 7–8');
    expect(formatRanges([4])).toBe('4');
  });
});

describe('journal conflicts per student', () => {
  const c = (student_id: number, lesson_hour: number, journal_status: JournalConflict['journal_status'], status: JournalConflict['status'], pushed_at = '2026-11-23T01:00:00Z', set_by_name = 'Bu Wali'): JournalConflict => ({
    student_id,
    lesson_hour,
    journal_status,
    status,
    set_by_name,
    set_at: '2026-11-23T00:30:00Z',
    pushed_at,
  });
  const student = (id: number, full_name: string) => ({ id, full_name, nisn: '', nis: '', gender: 'L' as const, cells: [] });
  const form: Pick<AttendanceForm, 'students' | 'journal_conflicts'> = {
    students: [student(1, 'Ani'), student(2, 'Budi'), student(3, 'Citra')],
    journal_conflicts: [
      c(2, 3, 'A', 'S'),
      c(2, 1, 'A', 'S', '2026-11-23T03:00:00Z'),
      c(2, 2, 'A', 'S'),
      c(2, 5, 'T', 'H', '2026-11-23T02:00:00Z', 'Pak Guru'),
      c(1, 4, 'A', 'I'),
      c(9, 1, 'A', 'S'), // left the class: no row
    ],
  };

  it('groups by student in the form order, then by the pair of statuses and who set them', () => {
    const g = groupConflicts(form);
    expect(g.map((s) => s.name)).toEqual(['Ani', 'Budi']);
    const budi = g[1]!;
    expect(budi.groups).toEqual([
      { journalStatus: 'A', status: 'S', setByName: 'Bu Wali', hours: [1, 2, 3] },
      { journalStatus: 'T', status: 'H', setByName: 'Pak Guru', hours: [5] },
    ]);
    expect(formatRanges(budi.groups[0]!.hours)).toBe('1–3');
    expect(budi.cells.map((x) => x.lesson_hour)).toEqual([1, 2, 3, 5]);
    expect(budi.pushedAt).toBe('2026-11-23T03:00:00Z');
  });

  it('is empty without conflicts', () => {
    expect(groupConflicts({ students: form.students, journal_conflicts: [] })).toEqual([]);
  });
});
