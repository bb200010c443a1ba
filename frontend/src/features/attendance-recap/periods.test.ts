import { describe, expect, it } from 'vitest';
import { monthGrid, shiftMonth } from '@/lib/months';
import { isMonth, mondayOf, percentage, shiftPeriod, todayISO } from './periods';

describe('periods', () => {
  it('takes today from Jakarta, not the device', () => {
    // 23:30 UTC on 9 Nov is 10 Nov in Jakarta.
    expect(todayISO(new Date('2025-11-09T23:30:00Z'))).toBe('2025-11-10');
  });
  it('starts weeks on Monday; a Sunday closes its week', () => {
    expect(mondayOf('2025-11-09')).toBe('2025-11-03');
    expect(mondayOf('2025-11-03')).toBe('2025-11-03');
    expect(mondayOf('2025-11-05')).toBe('2025-11-03');
  });
  it('moves by the period', () => {
    expect(shiftPeriod('2025-11-30', 'daily', 1)).toBe('2025-12-01');
    expect(shiftPeriod('2025-11-05', 'weekly', -1)).toBe('2025-10-29');
    expect(shiftPeriod('2025-01-31', 'monthly', 1)).toBe('2025-02-28');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
  });
  it('lays a month out in whole Monday-first weeks', () => {
    const g = monthGrid('2025-11'); // 1 Nov 2025 is a Saturday
    expect(g.length % 7).toBe(0);
    expect(g.slice(0, 6)).toEqual([null, null, null, null, null, '2025-11-01']);
    expect(g.filter(Boolean)).toHaveLength(30);
    expect(monthGrid('2028-02').filter(Boolean)).toHaveLength(29);
  });
  it('validates months like the server', () => {
    expect(isMonth('2025-11')).toBe(true);
    expect(isMonth('2025-13')).toBe(false);
    expect(isMonth('1999-12')).toBe(false);
  });
  it('computes the attendance percentage from H and T hours', () => {
    expect(percentage({ h: 2, s: 0, i: 0, a: 1, t: 0 })).toBe(66.7);
    expect(percentage({ h: 1, s: 0, i: 0, a: 0, t: 1 })).toBe(100);
    expect(percentage({ h: 0, s: 0, i: 0, a: 0, t: 0 })).toBeNull();
  });
});
