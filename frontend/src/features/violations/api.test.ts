import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeFilters, defaultFilters, readFilters, writeFilters } from '@/lib/urlFilters';
import { activeFilterCount, exportUrl, isFiltered, listQuery, thisMonth, violationFilters, type ViolationFilters } from './api';

// 2026-11-30 20:00 UTC is already 1 December in Jakarta (UTC+7).
const NOW = new Date('2026-11-30T20:00:00Z');

// The schema's default period is this month on the clock: the clock is set to NOW.
beforeAll(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterAll(() => {
  vi.useRealTimers();
});

const filtersFromSearch = (sp: URLSearchParams) => readFilters(violationFilters, sp);
const filtersToSearch = (f: ViolationFilters) => writeFilters(violationFilters, f);
const dflt = () => defaultFilters(violationFilters);

describe('violation filters', () => {
  it('defaults to this month in Jakarta, not on the device clock', () => {
    expect(thisMonth(NOW)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(thisMonth(new Date('2026-02-10T00:00:00Z'))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(dflt().period).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('a plain URL is the default, and the default writes a plain URL', () => {
    const f = filtersFromSearch(new URLSearchParams());
    expect(f).toEqual(dflt());
    expect(filtersToSearch(f).toString()).toBe('');
    expect(isFiltered(f, NOW)).toBe(false);
  });

  it('round-trips every filter through the URL', () => {
    const f: ViolationFilters = {
      ...dflt(),
      period: { from: '2026-07-01', to: '2026-12-31' },
      departmentId: 2,
      grade: 10,
      classId: 7,
      categoryId: 3,
      typeId: 9,
      status: 'in_progress',
      verified: 'false',
      recorder: 'journal',
      studentId: 42,
      q: 'Budi',
      sort: '-points',
      page: 3,
      source: 'attendance',
    };
    const sp = filtersToSearch(f);
    expect(filtersFromSearch(sp)).toEqual(f);
    expect(activeFilterCount(f)).toBe(9);
  });

  it('"all dates" is kept as period=all and sends no dates', () => {
    const f = { ...dflt(), period: { from: '', to: '' } };
    const sp = filtersToSearch(f);
    expect(sp.toString()).toBe('period=all');
    const back = filtersFromSearch(sp);
    expect(back.period.from).toBe('');
    expect(listQuery(back, 20)).toMatchObject({ from: '', to: '' });
    expect(isFiltered(back, NOW)).toBe(true);
  });

  it('drops what it cannot read', () => {
    const f = filtersFromSearch(new URLSearchParams('from=kemarin&class_id=-1&handling_status=done&verified=ya&recorder=x&sort=drop&page=0&grade=abc'));
    expect(f).toMatchObject({ classId: null, status: '', verified: '', recorder: '', sort: '-occurred_at', page: 1, grade: null });
    expect(f.period.from).toBe('');
  });

  it('the source rides in the URL, the list and the export; none in the URL is the user’s own', () => {
    expect(filtersFromSearch(new URLSearchParams()).source).toBeNull();
    expect(filtersFromSearch(new URLSearchParams('source=manual')).source).toBe('behaviour');
    expect(filtersFromSearch(new URLSearchParams('source=sms')).source).toBeNull();
    const f: ViolationFilters = { ...dflt(), source: 'behaviour', page: 3 };
    expect(filtersToSearch(f).toString()).toBe('page=3&source=behaviour');
    expect(changeFilters(f, { source: 'all' }).page).toBe(1);
    expect(exportUrl(f)).toBe('/api/v1/violations/export?from=2026-12-01&to=2026-12-31&sort=-occurred_at&source=behaviour');
    // Not a filter to clear: the control stays visible with its choice.
    expect(isFiltered(f, NOW)).toBe(false);
    expect(activeFilterCount(f)).toBe(0);
  });

  it('any change but the page goes back to page 1', () => {
    const f = { ...dflt(), page: 4 };
    expect(changeFilters(f, { status: 'resolved' }).page).toBe(1);
    expect(changeFilters(f, { page: 5 }).page).toBe(5);
  });

  it('the list query names the server parameters; the export carries the same filters without the page', () => {
    const f: ViolationFilters = { ...dflt(), classId: 7, status: 'unhandled', recorder: '12', q: ' Siti ', page: 2 };
    expect(listQuery(f, 25)).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
      department_id: null,
      grade: null,
      class_id: 7,
      category_id: null,
      type_id: null,
      handling_status: 'unhandled',
      verified: '',
      recorder: '12',
      student_id: null,
      q: 'Siti',
      sort: '-occurred_at',
      source: null,
      page: 2,
      per_page: 25,
    });
    expect(exportUrl(f)).toBe(
      '/api/v1/violations/export?from=2026-12-01&to=2026-12-31&class_id=7&handling_status=unhandled&recorder=12&q=Siti&sort=-occurred_at',
    );
  });
});
