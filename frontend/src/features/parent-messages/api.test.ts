import { describe, expect, it } from 'vitest';
import { changeFilters, defaultFilters, readFilters, writeFilters } from '@/lib/urlFilters';
import { isFiltered, listQuery, logFilters, type LogFilters } from './api';

const DEFAULT_FILTERS = defaultFilters(logFilters);
const filtersFromSearch = (sp: URLSearchParams) => readFilters(logFilters, sp);
const filtersToSearch = (f: LogFilters) => writeFilters(logFilters, f);

describe('delivery log filters in the URL', () => {
  it('reads every filter and writes it back the same', () => {
    const sp = new URLSearchParams('status=failed&event=warning_letter&class_id=4&student_id=12&from=2026-11-01&to=2026-11-30&page=3');
    const f = filtersFromSearch(sp);
    expect(f).toEqual({ status: 'failed', event: 'warning_letter', classId: 4, studentId: 12, from: '2026-11-01', to: '2026-11-30', page: 3 });
    expect(filtersToSearch(f).toString()).toBe(sp.toString());
  });

  it('falls back to the default for anything unreadable', () => {
    const f = filtersFromSearch(new URLSearchParams('status=lost&event=party&class_id=-1&student_id=x&from=1-2-3&page=0'));
    expect(f).toEqual(DEFAULT_FILTERS);
  });

  it('keeps a plain URL plain', () => {
    expect(filtersToSearch(DEFAULT_FILTERS).toString()).toBe('');
  });

  it('goes back to page 1 on any change but the page', () => {
    const f = { ...DEFAULT_FILTERS, page: 4 };
    expect(changeFilters(f, { status: 'sent' }).page).toBe(1);
    expect(changeFilters(f, { page: 2 }).page).toBe(2);
  });

  it('counts the status apart from the other filters', () => {
    expect(isFiltered({ ...DEFAULT_FILTERS, status: 'failed' })).toBe(false);
    expect(isFiltered({ ...DEFAULT_FILTERS, studentId: 3 })).toBe(true);
    // Clearing (useUrlFilters' reset) writes the defaults: a plain URL.
    expect(filtersToSearch(DEFAULT_FILTERS).toString()).toBe('');
  });

  it('asks the server with its parameter names', () => {
    expect(listQuery({ ...DEFAULT_FILTERS, status: 'queued', classId: 2, studentId: 9, from: '2026-11-01', to: '2026-11-02', page: 2 }, 25)).toEqual({
      status: 'queued',
      event: '',
      class_id: 2,
      student_id: 9,
      from: '2026-11-01',
      to: '2026-11-02',
      page: 2,
      per_page: 25,
    });
  });
});
