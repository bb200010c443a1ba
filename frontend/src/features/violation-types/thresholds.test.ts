import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors';
import { classifyImportError, looksLikeXlsx } from './importErrors';
import {
  hasErrors,
  nextRow,
  rowsFromThresholds,
  strictlyIncreasing,
  thresholdErrorsFromFields,
  thresholdsInput,
  validateThresholdRows,
  type ThresholdRow,
} from './thresholds';

const row = (name: string, min_points: number | ''): ThresholdRow => ({ key: name, name, min_points, colour: 'red', default_text: '' });

describe('threshold field errors', () => {
  it('puts thresholds.<index>.<field> on the row with that index', () => {
    const e = thresholdErrorsFromFields({
      'thresholds.1.min_points': 'Harus lebih besar dari SP 1 (50).',
      'thresholds.0.name': 'Wajib diisi.',
      'thresholds.2.level': 'Tingkat ganda.',
      thresholds: 'Paling banyak 10 tingkat.',
    });
    expect(e.rows).toEqual({
      0: { name: 'Wajib diisi.' },
      1: { min_points: 'Harus lebih besar dari SP 1 (50).' },
      2: { level: 'Tingkat ganda.' },
    });
    expect(e.general).toEqual(['Paling banyak 10 tingkat.']);
    expect(hasErrors(e)).toBe(true);
    expect(hasErrors(thresholdErrorsFromFields({}))).toBe(false);
  });

  it('keeps two errors of one row', () => {
    expect(thresholdErrorsFromFields({ 'thresholds.3.name': 'a', 'thresholds.3.min_points': 'b' }).rows).toEqual({ 3: { name: 'a', min_points: 'b' } });
  });
});

describe('threshold rows', () => {
  it('orders the stored list by level and numbers the PUT body by position', () => {
    const rows = rowsFromThresholds([
      { id: 2, level: 2, name: 'SP 2', min_points: 100, colour: 'orange', default_text: 'b', updated_at: '2026-11-01T00:00:00Z' },
      { id: 1, level: 1, name: 'SP 1', min_points: 50, colour: 'yellow', default_text: 'a', updated_at: '2026-11-01T00:00:00Z' },
    ]);
    expect(rows.map((r) => r.name)).toEqual(['SP 1', 'SP 2']);
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
    expect(thresholdsInput([row(' SP 1 ', 50), row('SP 2', '')])).toEqual([
      { level: 1, name: 'SP 1', min_points: 50, colour: 'red', default_text: '' },
      { level: 2, name: 'SP 2', min_points: 0, colour: 'red', default_text: '' },
    ]);
  });

  it('adds a level above the last', () => {
    const r = nextRow([row('SP 1', 50), row('SP 2', 100)]);
    expect(r.name).toBe('SP 3');
    expect(r.min_points).toBe(150);
    expect(nextRow([]).min_points).toBe(50);
  });

  it('checks names and positive whole numbers before saving', () => {
    const msg = { required: 'req', positive: 'pos' };
    const e = validateThresholdRows([row('SP 1', 50), row('', 0), row('SP 3', 1.5), row('SP 4', '')], msg);
    expect(e.rows).toEqual({ 1: { name: 'req', min_points: 'pos' }, 2: { min_points: 'pos' }, 3: { min_points: 'pos' } });
    expect(hasErrors(validateThresholdRows([row('SP 1', 50)], msg))).toBe(false);
  });

  it('tells whether the minimums rise strictly', () => {
    expect(strictlyIncreasing([row('a', 50), row('b', 100), row('c', 150)])).toBe(true);
    expect(strictlyIncreasing([row('a', 50), row('b', 50)])).toBe(false);
    expect(strictlyIncreasing([row('a', 100), row('b', 60)])).toBe(false);
    expect(strictlyIncreasing([])).toBe(true);
  });
});

describe('import errors', () => {
  it('sorts the answers the screen explains', () => {
    expect(classifyImportError(new ApiError({ status: 413, code: 'too_large', message: 'Berkas melebihi batas 5 MB.' }))).toEqual({
      kind: 'too_large',
      message: 'Berkas melebihi batas 5 MB.',
    });
    const headers = new ApiError({ status: 422, code: 'invalid', message: 'Kolom wajib tidak ditemukan: poin.', fields: { headers: 'Kolom wajib tidak ditemukan: poin.' } });
    expect(classifyImportError(headers)).toEqual({ kind: 'headers', message: 'Kolom wajib tidak ditemukan: poin.' });
    const notXlsx = new ApiError({ status: 422, code: 'invalid', message: 'Data tidak valid.', fields: { file: 'Berkas ini tampaknya PDF, bukan .xlsx.' } });
    expect(classifyImportError(notXlsx)).toEqual({ kind: 'file', message: 'Berkas ini tampaknya PDF, bukan .xlsx.' });
    expect(classifyImportError(new ApiError({ status: 400, code: 'bad_request', message: 'Kirim multipart.' }))).toEqual({ kind: 'file', message: 'Kirim multipart.' });
    const conflict = new ApiError({ status: 409, code: 'conflict', message: 'x' });
    expect(classifyImportError(conflict)).toEqual({ kind: 'other', error: conflict });
    expect(classifyImportError(new Error('boom')).kind).toBe('other');
  });

  it('recognises an .xlsx by name', () => {
    expect(looksLikeXlsx({ name: 'jenis.XLSX' })).toBe(true);
    expect(looksLikeXlsx({ name: 'jenis.xls' })).toBe(false);
    expect(looksLikeXlsx({ name: 'jenis.csv' })).toBe(false);
  });
});
