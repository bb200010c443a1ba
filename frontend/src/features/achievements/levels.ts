import { LEVELS, type Level, type LevelPoints } from './api';

/** The levels at which a type applies, lowest first. */
export function applicableLevels(points: LevelPoints): Level[] {
  return LEVELS.filter((l) => points[l] !== null && points[l] !== undefined);
}

/** An empty points row: no level applies yet. */
export function noPoints(): LevelPoints {
  return { sekolah: null, kabupaten: null, provinsi: null, nasional: null, internasional: null };
}

/** Form text → points: '' is "does not apply", anything else a whole number (NaN is kept for the server to refuse). */
export function pointsFromForm(values: Record<Level, string>): LevelPoints {
  const out = noPoints();
  for (const l of LEVELS) {
    const v = values[l].trim();
    out[l] = v === '' ? null : Number(v);
  }
  return out;
}
