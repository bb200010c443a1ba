import { describe, expect, it } from 'vitest';
import { contrastRatio } from '@/app/theme';
import { STATUS_COLOURS, letterOf } from './statuses';

describe('status colours', () => {
  it('keep every letter readable on its background', () => {
    for (const [s, c] of Object.entries(STATUS_COLOURS)) {
      expect(contrastRatio(c.fg, c.bg), s).toBeGreaterThanOrEqual(4.6);
    }
  });

  it('are all different, and each status has its own letter', () => {
    const bgs = Object.values(STATUS_COLOURS).map((c) => c.bg);
    expect(new Set(bgs).size).toBe(bgs.length);
    expect(['H', 'S', 'I', 'A', 'T', 'belum'].map((s) => letterOf(s as never))).toEqual(['H', 'S', 'I', 'A', 'T', '–']);
  });
});
