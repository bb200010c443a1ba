import { describe, expect, it } from 'vitest';
import { monthGrid, shiftMonth } from '@/lib/months';
import { change, intensity } from './months';

describe('months', () => {
  it('shifts across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-11', 0)).toBe('2026-11');
  });
  it('lays a month out Monday first', () => {
    // 1 November 2026 is a Sunday: six blanks before it.
    const g = monthGrid('2026-11');
    expect(g.slice(0, 7)).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(g.length % 7).toBe(0);
    expect(g.filter(Boolean)).toHaveLength(30);
  });
  it('steps intensity in quarters of the largest day', () => {
    expect(intensity(0, 10)).toBe(0);
    expect(intensity(1, 10)).toBe(1);
    expect(intensity(5, 10)).toBe(2);
    expect(intensity(10, 10)).toBe(4);
  });
  it('names the change', () => {
    expect(change(5, 3)).toEqual({ dir: 'up', by: 2 });
    expect(change(1, 3)).toEqual({ dir: 'down', by: 2 });
    expect(change(3, 3)).toEqual({ dir: 'same', by: 0 });
    expect(change(3, undefined)).toBeNull();
  });
});
