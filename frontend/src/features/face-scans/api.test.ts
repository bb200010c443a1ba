import { describe, expect, it } from 'vitest';
import { changeFilters, defaultFilters, readFilters, writeFilters } from '@/lib/urlFilters';
import { pageMeta, reviewFilters, scanQuery, type ReviewFilters } from './api';

const DEFAULT_FILTERS = defaultFilters(reviewFilters);
const filtersFromSearch = (sp: URLSearchParams) => readFilters(reviewFilters, sp);
const filtersToSearch = (f: ReviewFilters) => writeFilters(reviewFilters, f);
const nov = (from: string, to: string) => ({ from: `2026-11-${from}`, to: `2026-11-${to}` });

describe('review page state in the URL', () => {
  it('reads every filter and writes it back the same', () => {
    const sp = new URLSearchParams('tab=log&outcome=uncertain&from=2026-11-01&to=2026-11-30&page=3');
    const f = filtersFromSearch(sp);
    expect(f).toEqual({ tab: 'log', outcome: 'uncertain', period: nov('01', '30'), page: 3 });
    expect(filtersToSearch(f).toString()).toBe(sp.toString());
  });

  it('falls back to the default for anything unreadable', () => {
    expect(filtersFromSearch(new URLSearchParams('tab=admin&outcome=maybe&from=1-2-3&to=x&page=0'))).toEqual(DEFAULT_FILTERS);
    expect(filtersFromSearch(new URLSearchParams('page=-2')).page).toBe(1);
    expect(filtersFromSearch(new URLSearchParams('page=2.5')).page).toBe(1);
  });

  it('keeps a plain /wajah plain', () => {
    expect(DEFAULT_FILTERS).toEqual({ tab: 'confirmations', outcome: '', period: { from: '', to: '' }, page: 1 });
    expect(filtersToSearch(DEFAULT_FILTERS).toString()).toBe('');
  });

  it('takes a period only with both ends, in order', () => {
    expect(filtersFromSearch(new URLSearchParams('from=2026-11-01')).period).toEqual({ from: '', to: '' });
    expect(filtersFromSearch(new URLSearchParams('from=2026-11-30&to=2026-11-01')).period).toEqual(nov('01', '30'));
    expect(filtersToSearch({ ...DEFAULT_FILTERS, period: { from: '2026-11-01', to: '' } }).toString()).toBe('');
  });

  it('goes back to page 1 on any change but the page', () => {
    const f: ReviewFilters = { ...DEFAULT_FILTERS, tab: 'log', page: 4 };
    expect(changeFilters(f, { outcome: 'matched' }).page).toBe(1);
    expect(changeFilters(f, { period: nov('01', '02') }).page).toBe(1);
    expect(changeFilters(f, { tab: 'confirmations' }).page).toBe(1);
    expect(changeFilters(f, { page: 2 }).page).toBe(2);
  });

  it('clears the filters but stays on the tab (the page resets to the defaults but the tab)', () => {
    expect(filtersToSearch({ ...DEFAULT_FILTERS, tab: 'log' }).toString()).toBe('tab=log');
  });

  it('asks the server with its parameter names, leaving out what is not set', () => {
    expect(scanQuery({ ...DEFAULT_FILTERS, tab: 'log', outcome: 'liveness_failed', period: nov('01', '02'), page: 2 }, 25)).toEqual({
      outcome: 'liveness_failed',
      from: '2026-11-01',
      to: '2026-11-02',
      page: 2,
      per_page: 25,
    });
    expect(scanQuery(DEFAULT_FILTERS, 25)).toEqual({ page: 1, per_page: 25 });
  });
});

describe('the log pager', () => {
  it('counts pages from {data,total}', () => {
    expect(pageMeta({ data: [], total: 51 }, 2, 25)).toEqual({ page: 2, per_page: 25, total: 51, last_page: 3 });
    expect(pageMeta({ data: [], total: 0 }, 1, 25)).toEqual({ page: 1, per_page: 25, total: 0, last_page: 1 });
    expect(pageMeta(undefined, 1, 25)).toBeUndefined();
  });

  it('takes the house shape {data,meta} as it is', () => {
    const meta = { page: 3, per_page: 10, total: 30, last_page: 3 };
    expect(pageMeta({ data: [], meta }, 1, 25)).toBe(meta);
  });
});
