import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeFilters, day, defaultFilters, field, flag, id, oneOf, page, period, readFilters, text, useUrlFilters, writeFilters } from './urlFilters';

const STATUSES = ['open', 'closed'] as const;
const schema = {
  q: text('q'),
  classId: id('class_id'),
  status: oneOf('status', STATUSES),
  sort: oneOf('sort', ['-date', 'name'] as const, '-date'),
  on: day('on'),
  overdue: flag('overdue'),
  period: period(),
};

describe('URL filters', () => {
  it('round-trips every field, in the schema order with the page last', () => {
    const sp = new URLSearchParams('q=budi&class_id=4&status=closed&sort=name&on=2026-11-02&overdue=true&from=2026-11-01&to=2026-11-30&page=3');
    const f = readFilters(schema, sp);
    expect(f).toEqual({
      q: 'budi',
      classId: 4,
      status: 'closed',
      sort: 'name',
      on: '2026-11-02',
      overdue: true,
      period: { from: '2026-11-01', to: '2026-11-30' },
      page: 3,
    });
    expect(writeFilters(schema, f).toString()).toBe(sp.toString());
  });

  it('reads a plain URL as the defaults and leaves the defaults out', () => {
    const d = defaultFilters(schema);
    expect(readFilters(schema, new URLSearchParams())).toEqual(d);
    expect(d).toEqual({ q: '', classId: null, status: '', sort: '-date', on: '', overdue: false, period: { from: '', to: '' }, page: 1 });
    expect(writeFilters(schema, d).toString()).toBe('');
    expect(writeFilters(schema, { ...d, q: '   ' }).toString()).toBe('');
  });

  it('ignores what it cannot read', () => {
    const bad = new URLSearchParams('class_id=-1&status=lost&sort=drop&on=kemarin&overdue=ya&from=1-2-3&to=x&page=0');
    expect(readFilters(schema, bad)).toEqual(defaultFilters(schema));
    expect(readFilters(schema, new URLSearchParams('page=2.5&class_id=99999999999999999999')).page).toBe(1);
    expect(readFilters(schema, new URLSearchParams('q=' + 'x'.repeat(300))).q).toHaveLength(100);
  });

  it('takes a period with both ends only, in order', () => {
    expect(readFilters(schema, new URLSearchParams('from=2026-11-01')).period).toEqual({ from: '', to: '' });
    expect(readFilters(schema, new URLSearchParams('from=2026-11-30&to=2026-11-01')).period).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(writeFilters(schema, { ...defaultFilters(schema), period: { from: '2026-11-01', to: '' } }).toString()).toBe('');
  });

  describe('a period open by default on this month', () => {
    afterEach(() => vi.useRealTimers());
    const month = { period: period({ initial: () => ({ from: `${new Date().toISOString().slice(0, 7)}-01`, to: '2026-12-31' }), allKey: 'period' }), page: page() };

    it('writes "every date" as period=all and a changed end as it is', () => {
      vi.useFakeTimers({ now: new Date('2026-12-10T00:00:00Z') });
      expect(defaultFilters(month).period).toEqual({ from: '2026-12-01', to: '2026-12-31' });
      expect(writeFilters(month, { period: { from: '', to: '' }, page: 2 }).toString()).toBe('period=all&page=2');
      expect(readFilters(month, new URLSearchParams('period=all')).period).toEqual({ from: '', to: '' });
      expect(writeFilters(month, { period: { from: '2026-07-01', to: '2026-12-31' }, page: 1 }).toString()).toBe('from=2026-07-01&to=2026-12-31');
      expect(readFilters(month, new URLSearchParams('to=2026-12-05')).period).toEqual({ from: '', to: '2026-12-05' });
    });
  });

  it('a field of its own words: parse and format', () => {
    const active = { active: field<'true' | 'false' | ''>('active', 'true', (r) => (r === 'false' ? 'false' : r === 'all' ? '' : undefined), (v) => v || 'all') };
    expect(readFilters(active, new URLSearchParams('active=all')).active).toBe('');
    expect(readFilters(active, new URLSearchParams('active=maybe')).active).toBe('true');
    expect(writeFilters(active, { active: '', page: 1 }).toString()).toBe('active=all');
  });

  it('goes back to page 1 on any change but the page', () => {
    const f = { ...defaultFilters(schema), page: 4 };
    expect(changeFilters(f, { status: 'open' }).page).toBe(1);
    expect(changeFilters(f, { page: 5 }).page).toBe(5);
  });

  it('the hook reads the URL the page was opened with', () => {
    let seen: unknown;
    function Probe() {
      seen = useUrlFilters(schema).filters;
      return null;
    }
    renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: ['/x?status=open&page=2&class_id=abc'] }, createElement(Probe)));
    expect(seen).toEqual({ ...defaultFilters(schema), status: 'open', page: 2 });
  });
});
