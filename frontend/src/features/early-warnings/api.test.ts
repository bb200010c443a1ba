import { describe, expect, it } from 'vitest';
import { changeFilters, defaultFilters, readFilters, writeFilters } from '@/lib/urlFilters';
import { earlyWarningFilters, parseKind, type EarlyWarningFilters } from './api';

const read = (q: string) => readFilters(earlyWarningFilters, new URLSearchParams(q));
const write = (f: EarlyWarningFilters) => writeFilters(earlyWarningFilters, f).toString();
const DEFAULTS = defaultFilters(earlyWarningFilters);

describe('early warning filters', () => {
  it('reads the URL, falling back to defaults for anything unreadable', () => {
    expect(DEFAULTS).toEqual({ source: null, kind: null, classId: null, page: 1 });
    expect(read('')).toEqual(DEFAULTS);
    expect(read('source=attendance&kind=absent_streak&class_id=7&page=3')).toEqual({ source: 'attendance', kind: 'absent_streak', classId: 7, page: 3 });
    // Behaviour's older name.
    expect(read('source=manual').source).toBe('behaviour');
    expect(read('source=x&kind=all&class_id=-2&page=0')).toEqual(DEFAULTS);
    expect(read('class_id=1.5&page=abc')).toEqual(DEFAULTS);
  });

  it('writes source, kind, class and page in that order, defaults left out', () => {
    expect(write(DEFAULTS)).toBe('');
    expect(write({ source: 'behaviour', kind: 'near_level', classId: 4, page: 2 })).toBe('source=behaviour&kind=near_level&class_id=4&page=2');
    expect(write({ ...DEFAULTS, source: 'all' })).toBe('source=all');
    const f = { source: 'attendance' as const, kind: 'late_repeat' as const, classId: 9, page: 5 };
    expect(read(write(f))).toEqual(f);
  });

  it('goes back to page 1 when a filter changes, not when the page does', () => {
    const on3 = { ...DEFAULTS, page: 3 };
    expect(changeFilters(on3, { kind: 'repeat_type' }).page).toBe(1);
    expect(changeFilters(on3, { page: 4 }).page).toBe(4);
  });

  it('knows the kinds', () => {
    expect(parseKind('follow_up_due')).toBe('follow_up_due');
    expect(parseKind('all')).toBeNull();
    expect(parseKind(null)).toBeNull();
  });
});
