/** Month arithmetic on YYYY-MM and the Monday-first grid of a month. */

/** The month step months from m (YYYY-MM). */
export function shiftMonth(m: string, step: number): string {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  const idx = y * 12 + (mo - 1) + step;
  return `${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, '0')}`;
}

/** The dates of month m (YYYY-MM) in weeks Monday..Sunday; null pads the first and last week. */
export function monthGrid(m: string): (string | null)[] {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, mo - 1, 1));
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= days; d++) cells.push(`${m}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  return cells;
}

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
