import { describe, expect, it } from 'vitest';
import { correctionPayload, correctionValues } from './correct';
import type { Violation } from './types';

const v = {
  id: 7,
  type_id: 3,
  occurred_at: '2026-11-02T00:15:30Z', // 07:15 in Jakarta
  location: 'Kantin',
  sanction: 'Teguran',
  description: '',
} as Violation;

describe('correctionValues', () => {
  it('reads the stored violation on the school clock', () => {
    expect(correctionValues(v)).toEqual({ type_id: '3', date: '2026-11-02', time: '07:15', location: 'Kantin', sanction: 'Teguran', description: '' });
  });
});

describe('correctionPayload', () => {
  it('sends nothing when nothing changed (seconds of the stored time do not count)', () => {
    expect(correctionPayload(v, correctionValues(v))).toEqual({});
  });
  it('sends only what changed, trimmed, the time as an instant', () => {
    const values = { ...correctionValues(v), type_id: '9', time: '08:00', location: ' Lab ', description: 'Dibetulkan' };
    expect(correctionPayload(v, values)).toEqual({
      type_id: 9,
      occurred_at: '2026-11-02T01:00:00.000Z',
      location: 'Lab',
      description: 'Dibetulkan',
    });
  });
});
