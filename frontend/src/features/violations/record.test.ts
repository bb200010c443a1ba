import { describe, expect, it } from 'vitest';
import { addPhotos, nowInJakarta, occurredAt, prefilledSanction } from './record';

describe('recording a violation', () => {
  it('defaults to now on the Jakarta clock', () => {
    expect(nowInJakarta(new Date('2026-11-30T20:05:00Z'))).toEqual({ date: '2026-12-01', time: '03:05' });
  });

  it('sends the Jakarta date and time as an instant', () => {
    expect(occurredAt('2026-12-01', '07:15')).toBe('2026-12-01T00:15:00.000Z');
    expect(occurredAt('2026-12-01', '07:15:30')).toBe('2026-12-01T00:15:00.000Z');
    expect(occurredAt('', '07:15')).toBeNull();
    expect(occurredAt('2026-12-01', '')).toBeNull();
  });

  it("prefills the one chosen type's sanction, never over what the person typed", () => {
    const a = { default_sanction: 'Teguran lisan' };
    const b = { default_sanction: 'Skorsing' };
    expect(prefilledSanction([a], '', '')).toBe('Teguran lisan');
    expect(prefilledSanction([b], 'Teguran lisan', 'Teguran lisan')).toBe('Skorsing');
    expect(prefilledSanction([a, b], 'Teguran lisan', 'Teguran lisan')).toBe('');
    expect(prefilledSanction([a, b], 'Membersihkan kelas', 'Teguran lisan')).toBe('Membersihkan kelas');
  });

  it('keeps only images up to 10 MB, at most five', () => {
    const img = (name: string, size = 1000, type = 'image/jpeg') => new File([new Uint8Array(size)], name, { type });
    const four = [img('1'), img('2'), img('3'), img('4')];
    const r = addPhotos(four, [img('5'), img('6'), img('x.pdf', 10, 'application/pdf')]);
    expect(r.files.map((f) => f.name)).toEqual(['1', '2', '3', '4', '5']);
    expect(r.refused).toBe(2);
    expect(addPhotos([], [img('big', 10 * 1024 * 1024 + 1), img('empty', 0)])).toEqual({ files: [], refused: 2 });
  });
});
