import { describe, expect, it } from 'vitest';
import { levelsOf, sendState } from './sending';

describe('sendState', () => {
  const l = { status: 'draft' as const, level: 1, past_year: false, sent_level: null as number | null };
  it('offers a letter never sent', () => expect(sendState(l)).toBe('unsent'));
  it('offers a letter raised since it was sent', () => expect(sendState({ ...l, level: 2, sent_level: 1 })).toBe('raised'));
  it('does not offer a letter sent at its level', () => expect(sendState({ ...l, status: 'delivered', sent_level: 1 })).toBe('sent'));
  it('closes a withdrawn letter and one of an ended year', () => {
    expect(sendState({ ...l, status: 'withdrawn' })).toBe('closed');
    expect(sendState({ ...l, past_year: true })).toBe('closed');
  });
});

describe('levelsOf', () => {
  it('takes the covered levels, else the one level', () => {
    expect(levelsOf({ level: 2, levels_covered: [1, 2] })).toEqual([1, 2]);
    expect(levelsOf({ level: 3 })).toEqual([3]);
    expect(levelsOf({ level: 3, levels_covered: [] })).toEqual([3]);
  });
});
