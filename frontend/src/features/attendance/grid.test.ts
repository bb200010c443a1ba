import { describe, expect, it } from 'vitest';
import { applyBulk, bulkKeys, cellKey, dropSaved, isPersonEntry, sourceOf, effective, keyOfEntryField, move, setCells, storedCells, statusForKey, summarize, toEntries, type Draft } from './grid';
import { isISODate, shiftDay, todayISO } from './days';
import type { AttendanceForm } from './types';

const at = '2026-11-23T00:15:00Z';
function form(): AttendanceForm {
  return {
    class_id: 7,
    class_name: 'XI IPA 1',
    date: '2026-11-23',
    lesson_hours: 3,
    can_edit: true,
    journal_conflicts: [],
    students: [
      { id: 1, nisn: '', nis: '1', full_name: 'Ani', gender: 'P', cells: [{ lesson_hour: 1, status: 'H', set_by: 'user', from_journal: false, updated_by: 'Bu Wali', updated_at: at }] },
      {
        id: 2,
        nisn: '',
        nis: '2',
        full_name: 'Budi',
        gender: 'L',
        cells: [
          { lesson_hour: 1, status: 'A', set_by: 'journal', from_journal: true, updated_by: '', updated_at: at },
          { lesson_hour: 2, status: 'A', set_by: 'journal', from_journal: true, updated_by: '', updated_at: at },
        ],
      },
      { id: 3, nisn: '', nis: '3', full_name: 'Citra', gender: 'P', cells: [] },
    ],
  };
}

describe('draft', () => {
  const f = form();
  const stored = storedCells(f);

  it('shows the draft over what is stored, belum where nothing is', () => {
    const d: Draft = { [cellKey(1, 2)]: 'S' };
    expect(effective(stored, d, cellKey(1, 1))).toBe('H');
    expect(effective(stored, d, cellKey(1, 2))).toBe('S');
    expect(effective(stored, d, cellKey(3, 1))).toBe('belum');
  });

  it('keeps only cells that differ from what is stored', () => {
    let d = setCells({}, stored, [cellKey(1, 1)], 'H');
    expect(d).toEqual({});
    d = setCells(d, stored, [cellKey(1, 1)], 'A');
    expect(d).toEqual({ '1:1': 'A' });
    d = setCells(d, stored, [cellKey(1, 1)], 'H');
    expect(d).toEqual({});
  });

  it('belum drops the unsaved value and cannot clear a stored one', () => {
    let d = setCells({}, stored, [cellKey(2, 1), cellKey(3, 1)], 'T');
    d = setCells(d, stored, [cellKey(2, 1), cellKey(3, 1)], 'belum');
    expect(d).toEqual({});
    expect(effective(stored, d, cellKey(2, 1))).toBe('A');
    expect(effective(stored, d, cellKey(3, 1))).toBe('belum');
  });

  it('returns the same object when nothing changes', () => {
    const d: Draft = { '3:1': 'H' };
    expect(setCells(d, stored, ['3:1'], 'H')).toBe(d);
  });
});

describe('bulk', () => {
  const f = form();
  // Budi's hour 2 came from a Face-ID kiosk.
  f.students[1]!.cells[1] = { lesson_hour: 2, status: 'T', set_by: 'kiosk', from_journal: false, updated_by: '', updated_at: at };
  const stored = storedCells(f);

  it('fills only empty cells: a stored (journal, kiosk, person) or typed status stays', () => {
    let d = setCells({}, stored, ['3:2'], 'A');
    d = applyBulk(d, stored, f, { kind: 'class' }, 'H');
    expect(d['1:1']).toBeUndefined(); // a person's H
    expect(d['2:1']).toBeUndefined(); // the journal's A
    expect(d['2:2']).toBeUndefined(); // the kiosk's T
    expect(d['3:2']).toBe('A'); // typed, unsaved
    expect(Object.keys(d).sort()).toEqual(['1:2', '1:3', '2:3', '3:1', '3:2', '3:3']);
  });

  it('overwrites every cell of the scope only when asked', () => {
    const d = applyBulk({}, stored, f, { kind: 'class' }, 'H', true);
    // 9 cells; Ani's hour 1 is already H.
    expect(Object.keys(d)).toHaveLength(8);
    expect(d['2:1']).toBe('H');
    expect(d['2:2']).toBe('H');
  });

  it('one lesson hour: the empty cells, or all of them', () => {
    expect(applyBulk({}, stored, f, { kind: 'hour', hour: 2 }, 'I')).toEqual({ '1:2': 'I', '3:2': 'I' });
    expect(applyBulk({}, stored, f, { kind: 'hour', hour: 2 }, 'I', true)).toEqual({ '1:2': 'I', '2:2': 'I', '3:2': 'I' });
  });

  it("one student's day: the empty cells, or all of them", () => {
    expect(bulkKeys(stored, {}, f, { kind: 'student', studentId: 2 }, 'S')).toEqual(['2:3']);
    expect(applyBulk({}, stored, f, { kind: 'student', studentId: 2 }, 'S', true)).toEqual({ '2:1': 'S', '2:2': 'S', '2:3': 'S' });
  });

  it('belum for the class clears every unsaved value, filled or not', () => {
    let d = applyBulk({}, stored, f, { kind: 'class' }, 'A', true);
    d = applyBulk(d, stored, f, { kind: 'class' }, 'belum');
    expect(d).toEqual({});
  });
});

describe('provenance', () => {
  const base = { from_journal: false } as const;
  it('names who set a cell; a person and an excuse are people', () => {
    expect(sourceOf({ ...base, set_by: 'kiosk' })).toBe('kiosk');
    expect(isPersonEntry({ ...base, set_by: 'user' })).toBe(true);
    expect(isPersonEntry({ ...base, set_by: 'excuse' })).toBe(true);
    expect(isPersonEntry({ ...base, set_by: 'journal' })).toBe(false);
    expect(isPersonEntry({ ...base, set_by: 'kiosk' })).toBe(false);
  });
});

describe('entries', () => {
  it('sends only the changed cells, in grid order', () => {
    const f = form();
    const stored = storedCells(f);
    const d = setCells(setCells({}, stored, ['3:3', '1:2'], 'H'), stored, ['2:1'], 'S');
    expect(toEntries(f, d)).toEqual([
      { student_id: 1, lesson_hour: 2, status: 'H' },
      { student_id: 2, lesson_hour: 1, status: 'S' },
      { student_id: 3, lesson_hour: 3, status: 'H' },
    ]);
  });

  it('a save drops what it sent from the draft, not a cell changed since', () => {
    const d: Draft = { '1:2': 'H', '3:3': 'A' };
    expect(dropSaved(d, [{ student_id: 1, lesson_hour: 2, status: 'H' }, { student_id: 3, lesson_hour: 3, status: 'S' }])).toEqual({ '3:3': 'A' });
  });

  it('maps an error on entries[i] back to its cell', () => {
    const sent = [
      { student_id: 1, lesson_hour: 2, status: 'H' as const },
      { student_id: 3, lesson_hour: 3, status: 'A' as const },
    ];
    expect(keyOfEntryField('entries[1].status', sent)).toBe('3:3');
    expect(keyOfEntryField('entries.0.lesson_hour', sent)).toBe('1:2');
    expect(keyOfEntryField('entries[9]', sent)).toBeNull();
    expect(keyOfEntryField('date', sent)).toBeNull();
  });
});

describe('summary', () => {
  it('counts students, not hours', () => {
    const f = form();
    const stored = storedCells(f);
    const s = summarize(f, stored, { '3:1': 'A', '3:2': 'A', '1:2': 'T' });
    // Budi has two A hours and Citra two: 2 students, not 4 hours.
    expect(s.students).toEqual({ H: 1, S: 0, I: 0, A: 2, T: 1 });
    expect(s.empty).toBe(0);
    expect(s.partial).toBe(3);
    const none = summarize(f, stored, {});
    expect(none.empty).toBe(1);
  });
});

describe('keyboard', () => {
  it('reads status keys', () => {
    expect(statusForKey('h')).toBe('H');
    expect(statusForKey('T')).toBe('T');
    expect(statusForKey('Backspace')).toBe('belum');
    expect(statusForKey('Delete')).toBe('belum');
    expect(statusForKey('0')).toBe('belum');
    expect(statusForKey('-')).toBe('belum');
    expect(statusForKey('x')).toBeNull();
    expect(statusForKey('Enter')).toBeNull();
  });

  it('moves with arrows, stopping at the edges', () => {
    // 1 header row + 3 students, 1 name column + 3 hours.
    expect(move({ row: 1, col: 1 }, 'ArrowUp', 4, 4)).toEqual({ row: 0, col: 1 });
    expect(move({ row: 0, col: 1 }, 'ArrowUp', 4, 4)).toEqual({ row: 0, col: 1 });
    expect(move({ row: 3, col: 3 }, 'ArrowDown', 4, 4)).toEqual({ row: 3, col: 3 });
    expect(move({ row: 2, col: 3 }, 'ArrowRight', 4, 4)).toEqual({ row: 2, col: 3 });
    expect(move({ row: 2, col: 1 }, 'ArrowLeft', 4, 4)).toEqual({ row: 2, col: 0 });
    expect(move({ row: 2, col: 2 }, 'Home', 4, 4)).toEqual({ row: 2, col: 0 });
    expect(move({ row: 2, col: 2 }, 'End', 4, 4)).toEqual({ row: 2, col: 3 });
    expect(move({ row: 2, col: 2 }, 'Home', 4, 4, true)).toEqual({ row: 0, col: 0 });
    expect(move({ row: 2, col: 2 }, 'End', 4, 4, true)).toEqual({ row: 3, col: 3 });
    expect(move({ row: 1, col: 2 }, 'PageDown', 4, 4)).toEqual({ row: 3, col: 2 });
    expect(move({ row: 1, col: 2 }, 'h', 4, 4)).toBeNull();
  });
});

describe('days', () => {
  it('takes today in Jakarta, not in the device zone', () => {
    // 23:30 UTC on the 22nd is 06:30 on the 23rd in Jakarta.
    expect(todayISO(new Date('2026-11-22T23:30:00Z'))).toBe('2026-11-23');
    expect(todayISO(new Date('2026-11-22T16:59:00Z'))).toBe('2026-11-22');
  });

  it('steps days across months and checks dates', () => {
    expect(shiftDay('2026-11-30', 1)).toBe('2026-12-01');
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(isISODate('2026-02-30')).toBe(false);
    expect(isISODate('2026-2-3')).toBe(false);
    expect(isISODate('2026-02-28')).toBe(true);
  });
});
