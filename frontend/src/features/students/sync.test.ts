import { describe, expect, it } from 'vitest';
import { syncCounts, syncProgress, syncSeconds } from './sync';
import type { StudentSync } from './types';

const base: StudentSync = {
  id: 1,
  status: 'running',
  trigger: 'manual',
  phase: 'fetching',
  actor_name: 'Admin',
  started_at: '2026-11-22T03:00:00Z',
  finished_at: null,
  pages_done: 0,
  pages_total: 0,
  fetched: 0,
  expected: 0,
  progress: 0,
  result: null,
  error: '',
  error_code: '',
};

describe('syncProgress', () => {
  it('shows nothing known at the very start', () => {
    const p = syncProgress(base);
    expect(p).toMatchObject({ value: 0, running: true, color: 'blue', phaseKey: 'sync.phase.fetching', pages: null, records: null });
  });

  it('uses the server progress, pages and records while fetching', () => {
    const p = syncProgress({ ...base, pages_done: 3, pages_total: 12, fetched: 300, expected: 1200, progress: 23 });
    expect(p.value).toBe(23);
    expect(p.pages).toEqual({ key: 'sync.pages', values: { done: 3, total: 12 } });
    expect(p.records).toEqual({ key: 'sync.records', values: { fetched: 300, expected: 1200 } });
  });

  it('derives a value from pages when the server sends no progress, and clamps', () => {
    expect(syncProgress({ ...base, pages_done: 5, pages_total: 10 }).value).toBe(45);
    expect(syncProgress({ ...base, progress: 140 }).value).toBe(100);
    expect(syncProgress({ ...base, progress: Number.NaN }).value).toBe(0);
    expect(syncProgress({ ...base, fetched: 15 }).records).toEqual({ key: 'sync.recordsNoTotal', values: { fetched: 15 } });
  });

  it('shows the saving phase', () => {
    expect(syncProgress({ ...base, phase: 'saving', progress: 95 }).phaseKey).toBe('sync.phase.saving');
  });

  it('is full when finished, red when failed', () => {
    const ok = syncProgress({ ...base, status: 'succeeded', phase: 'done', progress: 100 });
    expect(ok).toMatchObject({ value: 100, running: false, color: 'teal', phaseKey: 'sync.phase.done' });
    const bad = syncProgress({ ...base, status: 'failed', phase: 'fetching', progress: 30, error: 'x' });
    expect(bad).toMatchObject({ value: 100, running: false, color: 'red', phaseKey: 'sync.phase.failed' });
  });
});

describe('syncCounts and syncSeconds', () => {
  const done: StudentSync = {
    ...base,
    status: 'succeeded',
    finished_at: '2026-11-22T03:00:02.600Z',
    result: {
      fetched: 200, skipped: 0, new: 180, updated: 15, unchanged: 5, deactivated: 2, relinked: 0,
      departments: 3, departments_new: 3, classes: 36, classes_new: 36, complete: true, warnings: [], warning_codes: [],
    },
  };

  it('lists the counts in order, relinked and skipped only when any', () => {
    expect(syncCounts(done).map((c) => `${c.key}=${c.value}`)).toEqual([
      'new=180', 'updated=15', 'unchanged=5', 'deactivated=2', 'departments=3', 'classes=36',
    ]);
    const more = { ...done, result: { ...done.result!, relinked: 1, skipped: 2 } };
    expect(syncCounts(more).slice(-2)).toEqual([{ key: 'relinked', value: 1 }, { key: 'skipped', value: 2 }]);
    expect(syncCounts(base)).toEqual([]);
  });

  it('measures the run', () => {
    expect(syncSeconds(done)).toBe(3);
    expect(syncSeconds(base)).toBeNull();
  });
});
