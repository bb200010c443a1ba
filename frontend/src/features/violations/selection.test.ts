import { describe, expect, it } from 'vitest';
import { emptySelection, MAX_SELECTION, pageState, refresh, refusedIds, selectedIds, studentCount, toggle, togglePage, type Picked } from './selection';

const v = (id: number, student_id = id, handling_status: Picked['handling_status'] = 'unhandled'): Picked => ({ id, student_id, handling_status });

describe('violation selection', () => {
  it('toggles a row, never a resolved one', () => {
    let sel = toggle(emptySelection, v(3, 1));
    sel = toggle(sel, v(1, 1, 'in_progress'));
    sel = toggle(sel, v(2, 2, 'resolved'));
    expect(selectedIds(sel)).toEqual([1, 3]);
    expect(studentCount(sel)).toBe(1);
    expect(selectedIds(toggle(sel, v(3, 1)))).toEqual([1]);
  });

  it('chooses a page, lets a fully chosen page go, and keeps other pages', () => {
    const page1 = [v(1), v(2), v(3, 3, 'resolved')];
    const page2 = [v(4), v(5)];
    let sel = toggle(emptySelection, v(4));
    expect(pageState(sel, page1)).toBe('none');
    sel = toggle(sel, v(1));
    expect(pageState(sel, page1)).toBe('some');
    sel = togglePage(sel, page1);
    // The resolved row does not count: the page is all chosen.
    expect(pageState(sel, page1)).toBe('all');
    expect(selectedIds(sel)).toEqual([1, 2, 4]);
    sel = togglePage(sel, page1);
    expect(selectedIds(sel)).toEqual([4]);
    expect(pageState(sel, page2)).toBe('some');
    expect(pageState(emptySelection, [v(9, 9, 'resolved')])).toBe('none');
  });

  it('stops at the server limit', () => {
    const rows = Array.from({ length: MAX_SELECTION + 20 }, (_, i) => v(i + 1));
    const sel = togglePage(emptySelection, rows);
    expect(sel.size).toBe(MAX_SELECTION);
    expect(toggle(sel, v(10_000))).toBe(sel);
    // Letting one go makes room again.
    expect(toggle(toggle(sel, v(1)), v(10_000)).has(10_000)).toBe(true);
  });

  it('follows the list after a reload: a row resolved meanwhile leaves, one now in progress stays', () => {
    const sel = togglePage(emptySelection, [v(1), v(2), v(3)]);
    const after = refresh(sel, [v(1, 1, 'in_progress'), v(2, 2, 'resolved')]);
    expect(selectedIds(after)).toEqual([1, 3]);
    expect(after.get(1)?.handling_status).toBe('in_progress');
    // Nothing changed: the same selection (no re-render loop).
    expect(refresh(after, [v(1, 1, 'in_progress')])).toBe(after);
  });

  it('reads the refused ids from the field errors by their index in the request', () => {
    expect(refusedIds({ 'violation_ids.2': 'x', 'violation_ids.0': 'y', handled_on: 'z', 'violation_ids.9': 'gone' }, [11, 12, 13])).toEqual([11, 13]);
  });
});
