import { describe, expect, it } from 'vitest';
import { formatNumber } from './numbers';

describe('formatNumber', () => {
  it('uses the language separators', () => {
    expect(formatNumber(1200, 'id')).toBe('1.200');
    expect(formatNumber(1200, 'en')).toBe('1,200');
    expect(formatNumber(1234567, 'id')).toBe('1.234.567');
    expect(formatNumber(2.5, 'id')).toBe('2,5');
    expect(formatNumber(2.5, 'en')).toBe('2.5');
    expect(formatNumber(7)).toBe('7');
  });

  it('shows a non-number as it is', () => {
    expect(formatNumber(Number.NaN, 'id')).toBe('NaN');
  });
});
