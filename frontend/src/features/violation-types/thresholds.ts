import type { FieldErrors } from '@/api/errors';
import type { SPThreshold, SPThresholdInput } from './api';

/** One row of the thresholds editor. `key` is stable for React; the level is the row's position. */
export interface ThresholdRow {
  key: string;
  name: string;
  min_points: number | '';
  colour: string;
  default_text: string;
}

export type RowField = 'name' | 'min_points' | 'colour' | 'default_text' | 'level';

export interface ThresholdErrors {
  /** Row index → field → message. */
  rows: Record<number, Partial<Record<RowField, string>>>;
  /** Messages that belong to no row (e.g. "thresholds": too many levels). */
  general: string[];
}

let seq = 0;
export function newRowKey(): string {
  seq += 1;
  return `row-${seq}`;
}

/** The stored list, by level, as editor rows. */
export function rowsFromThresholds(list: readonly SPThreshold[]): ThresholdRow[] {
  return [...list]
    .sort((a, b) => a.level - b.level)
    .map((t) => ({ key: newRowKey(), name: t.name, min_points: t.min_points, colour: t.colour, default_text: t.default_text }));
}

/** The PUT body: levels 1..n in row order (the server's field errors are keyed by this index). */
export function thresholdsInput(rows: readonly ThresholdRow[]): SPThresholdInput[] {
  return rows.map((r, i) => ({
    level: i + 1,
    name: r.name.trim(),
    min_points: r.min_points === '' ? 0 : r.min_points,
    colour: r.colour,
    default_text: r.default_text,
  }));
}

/** A new row after the last: SP n+1, 50 points above the last minimum. */
export function nextRow(rows: readonly ThresholdRow[], namePrefix = 'SP'): ThresholdRow {
  const last = rows[rows.length - 1];
  const lastMin = typeof last?.min_points === 'number' ? last.min_points : 0;
  return { key: newRowKey(), name: `${namePrefix} ${rows.length + 1}`, min_points: lastMin + 50, colour: 'red', default_text: '' };
}

const KEY = /^thresholds\.(\d+)\.([a-z_]+)$/;

/**
 * Puts the server's field errors (thresholds.1.min_points, thresholds.0.name, …) on their rows;
 * anything else is a general message.
 */
export function thresholdErrorsFromFields(fields: FieldErrors): ThresholdErrors {
  const out: ThresholdErrors = { rows: {}, general: [] };
  for (const [k, msg] of Object.entries(fields)) {
    const m = KEY.exec(k);
    if (m) {
      const i = Number(m[1]);
      const field = m[2] as RowField;
      (out.rows[i] ??= {})[field] = msg;
    } else {
      out.general.push(msg);
    }
  }
  return out;
}

export function hasErrors(e: ThresholdErrors): boolean {
  return e.general.length > 0 || Object.keys(e.rows).length > 0;
}

/**
 * The checks the screen makes before saving: a name and a whole number above 0. Whether the
 * minimums increase with the level is left to the server, whose message lands on the row.
 */
export function validateThresholdRows(rows: readonly ThresholdRow[], msg: { required: string; positive: string }): ThresholdErrors {
  const out: ThresholdErrors = { rows: {}, general: [] };
  rows.forEach((r, i) => {
    const e: Partial<Record<RowField, string>> = {};
    if (!r.name.trim()) e.name = msg.required;
    if (r.min_points === '' || !Number.isInteger(r.min_points) || r.min_points <= 0) e.min_points = msg.positive;
    if (Object.keys(e).length) out.rows[i] = e;
  });
  return out;
}

/** Whether the minimums rise strictly with the level (shown as a hint while editing). */
export function strictlyIncreasing(rows: readonly ThresholdRow[]): boolean {
  const mins = rows.map((r) => r.min_points);
  return mins.every((m, i) => i === 0 || (typeof m === 'number' && typeof mins[i - 1] === 'number' && m > (mins[i - 1] as number)));
}
