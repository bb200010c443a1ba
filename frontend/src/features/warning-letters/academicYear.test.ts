import { describe, expect, it } from 'vitest';
import { yearLabel, yearStartOf } from './academicYear';

describe('academic year', () => {
  it('names a year by its two calendar years', () => {
    expect(yearLabel('2026-07-01')).toBe('2026/2027');
    expect(yearLabel('')).toBe('');
  });

  it('finds the year of a day on both sides of the start', () => {
    expect(yearStartOf('2026-07-01', '07-01')).toBe('2026-07-01');
    expect(yearStartOf('2026-06-30', '07-01')).toBe('2025-07-01');
    expect(yearStartOf('2027-01-15', '07-01')).toBe('2026-07-01');
    expect(yearStartOf('2026-03-01', '01-02')).toBe('2026-01-02');
    expect(yearStartOf('2026-01-01', '01-02')).toBe('2025-01-02');
  });

  it('falls back to 1 July for a setting it cannot read', () => {
    expect(yearStartOf('2026-08-01', '')).toBe('2026-07-01');
  });
});
