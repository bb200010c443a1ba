import { describe, expect, it } from 'vitest';
import { reorderPatches } from './order';

const items = (...orders: number[]) => orders.map((sort_order, i) => ({ id: i + 1, sort_order }));

describe('reorderPatches', () => {
  it('swaps neighbours with two changes', () => {
    expect(reorderPatches(items(1, 2, 3), 2, 1)).toEqual([
      { id: 3, sort_order: 2 },
      { id: 2, sort_order: 3 },
    ]);
    expect(reorderPatches(items(1, 2, 3), 0, 1)).toEqual([
      { id: 2, sort_order: 1 },
      { id: 1, sort_order: 2 },
    ]);
  });

  it('renumbers equal or gapped orders', () => {
    expect(reorderPatches(items(10, 10, 30), 0, 1)).toEqual([
      { id: 2, sort_order: 1 },
      { id: 1, sort_order: 2 },
      { id: 3, sort_order: 3 },
    ]);
  });

  it('does nothing out of range or in place', () => {
    expect(reorderPatches(items(1, 2), 0, 0)).toEqual([]);
    expect(reorderPatches(items(1, 2), 0, -1)).toEqual([]);
    expect(reorderPatches(items(1, 2), 1, 2)).toEqual([]);
  });
});
