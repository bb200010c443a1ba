import { describe, expect, it } from 'vitest';
import { requiredBy, toggle, withRequired } from './ResetLogic';

const sets = [
  { id: 'violations', requires: [], rows: { violations: 4, notifications: 10 } },
  { id: 'attendance', requires: [], rows: { attendance: 6 } },
  { id: 'notifications', requires: [], rows: { notifications: 12 } },
  { id: 'parent_messages', requires: [], rows: { parent_messages: 2 } },
  { id: 'students', requires: ['violations', 'attendance', 'parent_messages'], rows: { students: 2 } },
  { id: 'violation_types', requires: ['violations'], rows: { violation_types: 5 } },
];

describe('reset choice', () => {
  it('ticks what a set requires', () => {
    expect(toggle([], 'students', sets)).toEqual(['violations', 'attendance', 'parent_messages', 'students']);
    expect(withRequired(['violation_types'], sets)).toEqual(['violations', 'violation_types']);
  });
  it('keeps a set another one requires', () => {
    const sel = toggle([], 'students', sets);
    expect(requiredBy(sel, sets)).toEqual({ violations: ['students'], attendance: ['students'], parent_messages: ['students'] });
    expect(toggle(sel, 'violations', sets)).toEqual(sel);
    expect(toggle(sel, 'students', sets)).toEqual(['violations', 'attendance', 'parent_messages']);
    expect(toggle(['violations', 'attendance', 'parent_messages'], 'violations', sets)).toEqual(['attendance', 'parent_messages']);
  });
});
