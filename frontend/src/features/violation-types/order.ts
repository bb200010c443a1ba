/**
 * The PATCHes that move the item at `from` to `to`: every item is given its new position
 * (1-based) as sort_order, and only the items whose sort_order changes are sent. Equal or
 * gapped sort_orders from the server are thereby made 1..n.
 */
export function reorderPatches<T extends { id: number; sort_order: number }>(items: readonly T[], from: number, to: number): { id: number; sort_order: number }[] {
  if (from < 0 || from >= items.length || to < 0 || to >= items.length || from === to) return [];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next.flatMap((item, i) => (item.sort_order === i + 1 ? [] : [{ id: item.id, sort_order: i + 1 }]));
}
