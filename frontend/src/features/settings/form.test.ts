import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/dates';
import {
  currentYearStart,
  formatMonthDay,
  monthDayToPickerValue,
  normalizeNip,
  parseMonthDay,
  pickerValueToMonthDay,
  studentAffairsPayload,
  testPayload,
} from './form';

describe('student-affairs payloads', () => {
  it('keeps the stored token unless it was replaced', () => {
    expect(studentAffairsPayload({ url: ' http://x ', schedule: '06:30', scheduleOn: true }, null)).toEqual({ url: 'http://x', schedule: '06:30' });
    expect(studentAffairsPayload({ url: 'http://x', schedule: '06:30', scheduleOn: false }, ' new ')).toEqual({
      url: 'http://x',
      schedule: '',
      token: 'new',
    });
  });

  it('tests with the typed token only when there is one', () => {
    expect(testPayload('http://x', null)).toEqual({ url: 'http://x' });
    expect(testPayload('http://x', '  ')).toEqual({ url: 'http://x' });
    expect(testPayload('http://x', 'tok')).toEqual({ url: 'http://x', token: 'tok' });
  });
});

describe('academic-year start', () => {
  it('reads MM-DD', () => {
    expect(parseMonthDay('07-01')).toEqual({ month: 7, day: 1 });
    expect(parseMonthDay('02-29')).toEqual({ month: 2, day: 29 });
    expect(parseMonthDay('02-30')).toBeNull();
    expect(parseMonthDay('13-01')).toBeNull();
    expect(parseMonthDay('7-1')).toBeNull();
  });

  it('finds the running academic year and shows it through the Jakarta formatter', () => {
    expect(currentYearStart('07-01', '2026-11-22')).toBe('2026-07-01');
    expect(currentYearStart('07-01', '2026-06-30')).toBe('2025-07-01');
    expect(currentYearStart('07-01', '2026-07-01')).toBe('2026-07-01');
    expect(currentYearStart('02-29', '2026-11-22')).toBe('2026-03-01');
    expect(currentYearStart('x', '2026-11-22')).toBe('');
    expect(formatDate(currentYearStart('07-01', '2026-11-22'), 'date', 'id')).toBe('1 Juli 2026');
  });
});

describe('school profile helpers', () => {
  it('takes a NIP typed in groups as its digits', () => {
    expect(normalizeNip('19720315 200003 1 002')).toBe('197203152000031002');
    expect(normalizeNip(' 19720315.200003-1\u00a0002 ')).toBe('197203152000031002');
  });
  it('shows the academic-year start day first, month by name', () => {
    expect(formatMonthDay('07-01', 'id')).toBe('1 Juli');
    expect(formatMonthDay('07-15', 'en')).toBe('15 July');
    expect(formatMonthDay('13-01', 'id')).toBe('');
  });
  it('round-trips the date picker value, 29 February included', () => {
    expect(monthDayToPickerValue('02-29')).toBe('2024-02-29');
    expect(pickerValueToMonthDay('2024-07-01')).toBe('07-01');
    expect(pickerValueToMonthDay(null)).toBe('');
  });
});
