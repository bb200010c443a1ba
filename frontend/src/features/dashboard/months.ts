/** The dashboard's figures: intensity steps and changes against the previous period. */

/**
 * The intensity step (0..4) of a day's count against the month's largest: 0 for none, then
 * quarters, so one busy day does not wash out the rest.
 */
export function intensity(count: number, max: number): 0 | 1 | 2 | 3 | 4 {
  if (count <= 0 || max <= 0) return 0;
  return Math.min(4, Math.max(1, Math.ceil((count / max) * 4))) as 1 | 2 | 3 | 4;
}

/** The change of a figure against its previous period: direction and size. */
export function change(count: number, previous: number | undefined): { dir: 'up' | 'down' | 'same'; by: number } | null {
  if (previous === undefined) return null;
  if (count === previous) return { dir: 'same', by: 0 };
  return count > previous ? { dir: 'up', by: count - previous } : { dir: 'down', by: previous - count };
}
