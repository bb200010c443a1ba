/** Month arithmetic on YYYY-MM and the Monday-first grid of a month (calendar screens). */

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
