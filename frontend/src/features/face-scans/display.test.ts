import { describe, expect, it } from 'vitest';
import type { FaceScan } from './api';
import { attendanceKey, formatPercent, isOpen, resolvedName } from './display';

describe('similarity as a percentage', () => {
  it('uses the language\'s decimal mark and at most one decimal', () => {
    expect(formatPercent(0.8734, 'id')).toBe('87,3%');
    expect(formatPercent(0.8734, 'en')).toBe('87.3%');
    expect(formatPercent(0.5, 'id')).toBe('50%');
    expect(formatPercent(1, 'en')).toBe('100%');
    expect(formatPercent(0.08, 'id')).toBe('8%');
    expect(formatPercent(0.0349, 'en')).toBe('3.5%');
  });

  it('shows a negative similarity as it is', () => {
    expect(formatPercent(-0.12, 'en')).toBe('-12%');
  });

  it('shows a dash for nothing', () => {
    expect(formatPercent(null)).toBe('—');
    expect(formatPercent(undefined)).toBe('—');
    expect(formatPercent(Number.NaN)).toBe('—');
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

const scan = (p: Partial<FaceScan>): FaceScan => ({
  id: 1,
  scanned_at: '2026-11-23T00:05:00Z',
  kiosk_name: 'Gerbang',
  outcome: 'uncertain',
  student_id: 7,
  student_name: 'Ani',
  class_name: 'X-1',
  score: 0.6,
  runner_up_id: 8,
  runner_up_name: 'Budi',
  runner_up_score: 0.57,
  margin: 0.03,
  challenge_kind: 'blink',
  challenge_passed: true,
  attendance: 'none',
  resolution: null,
  resolved_student_id: null,
  resolved_student_name: '',
  resolved_by_name: '',
  resolved_at: null,
  ...p,
});

describe('scan rows', () => {
  it('names the attendance effect, empty as none', () => {
    expect(attendanceKey('H')).toBe('H');
    expect(attendanceKey('T')).toBe('T');
    expect(attendanceKey('kept')).toBe('kept');
    expect(attendanceKey('')).toBe('none');
    expect(attendanceKey(null)).toBe('none');
  });

  it('knows an open uncertain scan from a resolved one', () => {
    expect(isOpen(scan({}))).toBe(true);
    expect(isOpen(scan({ resolution: 'rejected' }))).toBe(false);
    expect(isOpen(scan({ outcome: 'matched' }))).toBe(false);
  });

  it('names the student a scan was confirmed as', () => {
    expect(resolvedName(scan({ resolution: 'confirmed', resolved_student_name: 'Budi' }))).toBe('Budi');
    expect(resolvedName(scan({ resolution: 'rejected' }))).toBe('');
    expect(resolvedName(scan({}))).toBe('');
  });
});
