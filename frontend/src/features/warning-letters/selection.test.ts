import { describe, expect, it } from 'vitest';
import { batchFileName, batchIds, draftCount, EMPTY_SELECTION, MAX_BATCH, pageState, printable, toggle, togglePage, weekOf, type ChosenLetter } from './selection';

const l = (id: number, status = 'draft'): ChosenLetter => ({ id, status });

describe('choosing letters for a batch print', () => {
  it('toggles a letter in and out, keeping the order chosen', () => {
    let sel = toggle(EMPTY_SELECTION, l(3));
    sel = toggle(sel, l(1, 'printed'));
    expect(batchIds(sel).ids).toEqual([3, 1]);
    sel = toggle(sel, l(3));
    expect(batchIds(sel).ids).toEqual([1]);
  });
  it('never chooses a withdrawn letter', () => {
    expect(printable(l(1, 'withdrawn'))).toBe(false);
    expect(toggle(EMPTY_SELECTION, l(1, 'withdrawn')).size).toBe(0);
  });
  it('chooses a whole page of printable letters, then none of them, keeping other pages', () => {
    const other = toggle(EMPTY_SELECTION, l(99));
    const page = [l(1), l(2, 'signed'), l(3, 'withdrawn')];
    expect(pageState(other, page)).toBe('none');
    const all = togglePage(other, page);
    expect(batchIds(all).ids).toEqual([99, 1, 2]);
    expect(pageState(all, page)).toBe('all');
    expect(pageState(toggle(all, l(2)), page)).toBe('some');
    expect(batchIds(togglePage(all, page)).ids).toEqual([99]);
  });
  it('a page with only withdrawn letters has nothing to choose', () => {
    expect(pageState(EMPTY_SELECTION, [l(5, 'withdrawn')])).toBe('none');
    expect(togglePage(EMPTY_SELECTION, [l(5, 'withdrawn')]).size).toBe(0);
  });
  it('counts the drafts that the print moves on', () => {
    let sel = EMPTY_SELECTION;
    for (const x of [l(1), l(2, 'printed'), l(3), l(4, 'delivered')]) sel = toggle(sel, x);
    expect(draftCount(sel)).toBe(2);
  });
  it('sends at most the batch limit and says how many are left', () => {
    let sel = EMPTY_SELECTION;
    for (let i = 1; i <= MAX_BATCH + 5; i++) sel = toggle(sel, l(i));
    const { ids, left } = batchIds(sel);
    expect(ids).toHaveLength(MAX_BATCH);
    expect(ids[0]).toBe(1);
    expect(left).toBe(5);
  });
});

describe('weekOf', () => {
  it('runs Monday to Sunday', () => {
    expect(weekOf('2026-11-27')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // a Friday
    expect(weekOf('2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // the Monday
    expect(weekOf('2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // the Sunday
    expect(weekOf('2027-01-01')).toEqual({ from: '2026-12-28', to: '2027-01-03' }); // across the year
  });
});

it('names a batch download', () => {
  expect(batchFileName(12, '2026-11-27')).toBe('Surat-Peringatan-2026-11-27-12-surat.pdf');
});
