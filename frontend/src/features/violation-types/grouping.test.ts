import { describe, expect, it } from 'vitest';
import type { ViolationCategory, ViolationType } from './api';
import { cssColour, groupByCategory, mantineColour } from './grouping';

function cat(id: number, name: string, sort_order: number, colour = 'gray'): ViolationCategory {
  return { id, name, colour, sort_order, type_count: 0, active_type_count: 0, created_at: '', updated_at: '' };
}
function type(id: number, name: string, c: ViolationCategory, extra: Partial<ViolationType> = {}): ViolationType {
  return {
    id,
    name,
    slug: name.toLowerCase(),
    points: 5,
    category_id: c.id,
    category: { id: c.id, name: c.name, colour: c.colour, sort_order: c.sort_order },
    default_sanction: '',
    description: '',
    active: true,
    is_system: false,
    created_at: '',
    updated_at: '',
    ...extra,
  };
}

describe('groupByCategory', () => {
  const ringan = cat(1, 'Ringan', 1, 'yellow');
  const sedang = cat(2, 'Sedang', 2, 'orange');
  const berat = cat(3, 'Berat', 3, 'red');
  const kosong = cat(4, 'Kosong', 0);

  it('groups in category order and keeps the server order inside a group', () => {
    const types = [type(10, 'Alpha', ringan, { is_system: true }), type(11, 'Berkelahi', berat), type(12, 'Atribut', ringan)];
    const groups = groupByCategory(types, [berat, sedang, ringan, kosong]);
    expect(groups.map((g) => g.category.name)).toEqual(['Ringan', 'Berat']);
    expect(groups[0]!.types.map((t) => t.id)).toEqual([10, 12]);
    expect(groups[0]!.category.colour).toBe('yellow');
    expect(groups[0]!.listed).toBe(ringan);
  });

  it('keeps empty categories when asked (the unfiltered list)', () => {
    const groups = groupByCategory([type(1, 'X', sedang)], [berat, sedang, ringan, kosong], { includeEmpty: true });
    expect(groups.map((g) => g.category.name)).toEqual(['Kosong', 'Ringan', 'Sedang', 'Berat']);
    expect(groups.map((g) => g.types.length)).toEqual([0, 0, 1, 0]);
  });

  it('orders equal sort_order by name', () => {
    const groups = groupByCategory([], [cat(5, 'Zeta', 1), cat(6, 'Alfa', 1)], { includeEmpty: true });
    expect(groups.map((g) => g.category.name)).toEqual(['Alfa', 'Zeta']);
  });

  it('gives a type whose category was not listed a group from its embedded category', () => {
    const lost = cat(9, 'Lain', 7, 'teal');
    const groups = groupByCategory([type(1, 'Y', lost)], [ringan]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.category).toEqual({ id: 9, name: 'Lain', colour: 'teal', sort_order: 7 });
    expect(groups[0]!.listed).toBeUndefined();
  });
});

describe('colours', () => {
  it('accepts hex and Mantine names, else gray', () => {
    expect(mantineColour('#E03131')).toBe('#E03131');
    expect(mantineColour('Red')).toBe('red');
    expect(mantineColour('purple')).toBe('gray');
    expect(mantineColour(undefined)).toBe('gray');
    expect(cssColour('orange')).toBe('var(--mantine-color-orange-filled)');
    expect(cssColour('#abc')).toBe('#abc');
    expect(cssColour('rgb(1,2,3)')).toBe('var(--mantine-color-gray-filled)');
  });
});
