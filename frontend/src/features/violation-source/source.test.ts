import { describe, expect, it } from 'vitest';
import { effectiveSource, kindWithin, parseSource, withQuery, withSource } from './source';

describe('Sumber', () => {
  it('reads the three sources and the old name of behaviour, nothing else', () => {
    expect(parseSource('behaviour')).toBe('behaviour');
    expect(parseSource('attendance')).toBe('attendance');
    expect(parseSource('all')).toBe('all');
    expect(parseSource('manual')).toBe('behaviour');
    expect(parseSource('Absensi')).toBeNull();
    expect(parseSource('')).toBeNull();
    expect(parseSource(null)).toBeNull();
  });

  it('takes the URL first, then the remembered one, and waits while neither is known', () => {
    expect(effectiveSource('attendance', 'behaviour')).toBe('attendance');
    expect(effectiveSource(null, 'behaviour')).toBe('behaviour');
    expect(effectiveSource(null, undefined)).toBeNull();
    // The preference cannot be read: everything rather than nothing.
    expect(effectiveSource(null, undefined, true)).toBe('all');
  });

  it('puts the source into a URL and more parameters onto a link', () => {
    expect(withSource(new URLSearchParams('from=2026-11-01&source=all'), 'attendance').toString()).toBe('from=2026-11-01&source=attendance');
    expect(withQuery('/peringatan-dini?source=behaviour', { kind: 'repeat_type' })).toBe('/peringatan-dini?source=behaviour&kind=repeat_type');
    expect(withQuery('/peringatan-dini', { kind: 'near_level' })).toBe('/peringatan-dini?kind=near_level');
  });

  it('keeps an early-warning tab only when the new source has it', () => {
    expect(kindWithin('repeat_type', 'attendance')).toBeNull();
    expect(kindWithin('late_repeat', 'attendance')).toBe('late_repeat');
    expect(kindWithin('near_level', 'behaviour')).toBe('near_level');
    expect(kindWithin(null, 'all')).toBeNull();
  });
});
