import { describe, expect, it } from 'vitest';
import { applicableLevels, pointsFromForm } from './levels';

describe('levels', () => {
  it('lists only the levels with points, lowest first', () => {
    const p = pointsFromForm({ sekolah: '10', kabupaten: '', provinsi: '0', nasional: ' ', internasional: '75' });
    expect(p).toEqual({ sekolah: 10, kabupaten: null, provinsi: 0, nasional: null, internasional: 75 });
    expect(applicableLevels(p)).toEqual(['sekolah', 'provinsi', 'internasional']);
  });
});
