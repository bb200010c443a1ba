import type { CategoryRef, ViolationCategory, ViolationType } from './api';

export interface TypeGroup {
  category: CategoryRef;
  /** The category as listed (counts), when the server listed it. */
  listed?: ViolationCategory;
  types: ViolationType[];
}

/**
 * Groups types under their category in the categories' screen order (sort_order, then name).
 * Types keep the server's order inside a group (system types first, then by name). Empty
 * categories are kept only with `includeEmpty` (an unfiltered list, where they can be managed).
 * A type whose category is missing from `categories` still gets a group, from its embedded ref.
 */
export function groupByCategory(
  types: readonly ViolationType[],
  categories: readonly ViolationCategory[],
  { includeEmpty = false }: { includeEmpty?: boolean } = {},
): TypeGroup[] {
  const groups = new Map<number, TypeGroup>();
  for (const c of categories) {
    groups.set(c.id, { category: { id: c.id, name: c.name, colour: c.colour, sort_order: c.sort_order }, listed: c, types: [] });
  }
  for (const t of types) {
    let g = groups.get(t.category_id);
    if (!g) {
      g = { category: t.category ?? { id: t.category_id, name: '', colour: 'gray', sort_order: Number.MAX_SAFE_INTEGER }, types: [] };
      groups.set(t.category_id, g);
    }
    g.types.push(t);
  }
  return [...groups.values()]
    .filter((g) => includeEmpty || g.types.length > 0)
    .sort((a, b) => a.category.sort_order - b.category.sort_order || a.category.name.localeCompare(b.category.name, 'id') || a.category.id - b.category.id);
}

/** The Mantine colours the API accepts by name. */
export const MANTINE_COLOURS = ['dark', 'gray', 'red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime', 'yellow', 'orange'] as const;

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A CSS colour for a stored colour: hex as is, a Mantine name as its theme variable, else gray. */
export function cssColour(colour: string | undefined | null): string {
  const c = (colour ?? '').trim();
  if (HEX.test(c)) return c;
  if ((MANTINE_COLOURS as readonly string[]).includes(c.toLowerCase())) return `var(--mantine-color-${c.toLowerCase()}-filled)`;
  return 'var(--mantine-color-gray-filled)';
}

/** The value to give Mantine's `color` prop (names and hex both work; anything else is gray). */
export function mantineColour(colour: string | undefined | null): string {
  const c = (colour ?? '').trim();
  if (HEX.test(c)) return c;
  const lower = c.toLowerCase();
  return (MANTINE_COLOURS as readonly string[]).includes(lower) ? lower : 'gray';
}
