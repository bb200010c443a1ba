import { describe, expect, it } from 'vitest';
import { formatDate, inJakarta, todayInJakarta } from './dates';

describe('formatDate (Asia/Jakarta, tests run with TZ=UTC)', () => {
  it('runs in UTC so zone mistakes show', () => {
    expect(new Date('2026-11-01T23:30:00Z').getTimezoneOffset()).toBe(0);
  });

  it('23:30 UTC on the 1st is the 2nd in Jakarta', () => {
    expect(formatDate('2026-11-01T23:30:00Z', 'date', 'id')).toBe('2 November 2026');
    expect(formatDate('2026-11-01T23:30:00Z', 'weekdayDate', 'id')).toBe('Senin, 2 November 2026');
    expect(formatDate('2026-11-01T23:30:00Z', 'weekdayDate', 'en')).toBe('Monday, 2 November 2026');
    expect(formatDate('2026-11-01T23:30:00Z', 'iso')).toBe('2026-11-02');
  });

  it('16:59 UTC is still the same day in Jakarta', () => {
    expect(formatDate('2026-11-01T16:59:00Z', 'iso')).toBe('2026-11-01');
    expect(formatDate('2026-11-01T16:59:00Z', 'time', 'id')).toBe('23.59');
    expect(formatDate('2026-11-01T16:59:00Z', 'time', 'en')).toBe('23:59');
  });

  it('keeps a bare calendar date as that day', () => {
    expect(formatDate('2026-11-22', 'weekdayDate', 'id')).toBe('Minggu, 22 November 2026');
    expect(inJakarta('2026-11-22').format('YYYY-MM-DDTHH:mmZ')).toBe('2026-11-22T00:00+07:00');
  });

  it('formats date-times with Indonesian and English conventions', () => {
    expect(formatDate('2026-11-22T07:05:00Z', 'dateTime', 'id')).toBe('22 Nov 2026 14.05');
    expect(formatDate('2026-11-22T07:05:00Z', 'dateTime', 'en')).toBe('22 Nov 2026 14:05');
  });

  it('answers empty for missing or bad values and falls back to Indonesian', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate('2026-11-22T00:00:00Z', 'date', 'fr')).toBe('22 November 2026');
  });

  it('todayInJakarta turns the evening UTC into the next Jakarta day', () => {
    expect(todayInJakarta(new Date('2026-11-21T18:00:00Z')).format('YYYY-MM-DD')).toBe('2026-11-22');
  });
});
