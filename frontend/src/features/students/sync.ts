import type { StudentSync } from './types';

/** How often a running sync is polled (ms). */
export const SYNC_POLL_MS = 700;

/** What the progress bar shows for a job: i18n keys (students namespace) with their values. */
export interface SyncProgressView {
  /** 0–100. */
  value: number;
  /** Whether the bar should animate (the job still runs). */
  running: boolean;
  color: 'blue' | 'teal' | 'red';
  phaseKey: string;
  /** "sync.pages" with {done,total}, or null when the page count is not known yet. */
  pages: { key: string; values: Record<string, number> } | null;
  /** "sync.records" with {fetched,expected} (or "sync.recordsNoTotal" {fetched}), null before any arrived. */
  records: { key: string; values: Record<string, number> } | null;
}

function clamp(n: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.max(0, Math.min(100, Math.round(n)));
}

/**
 * The progress of a job for the bar. The server's `progress` is used when present; a
 * finished job always shows a full bar (red when it failed).
 */
export function syncProgress(job: StudentSync): SyncProgressView {
  const running = job.status === 'running';
  let value = clamp(job.progress);
  if (running && value === 0 && job.pages_total > 0) value = clamp((job.pages_done / job.pages_total) * 90);
  if (!running) value = 100;
  const phase = job.status === 'failed' ? 'failed' : running ? job.phase : 'done';
  return {
    value,
    running,
    color: job.status === 'failed' ? 'red' : running ? 'blue' : 'teal',
    phaseKey: `sync.phase.${phase}`,
    pages: job.pages_total > 0 ? { key: 'sync.pages', values: { done: job.pages_done, total: job.pages_total } } : null,
    records:
      job.fetched > 0
        ? job.expected > 0
          ? { key: 'sync.records', values: { fetched: job.fetched, expected: job.expected } }
          : { key: 'sync.recordsNoTotal', values: { fetched: job.fetched } }
        : null,
  };
}

/** The counts shown after a successful sync, in display order (keys under sync.counts). */
export function syncCounts(job: StudentSync): { key: string; value: number }[] {
  const r = job.result;
  if (!r) return [];
  return [
    { key: 'new', value: r.new },
    { key: 'updated', value: r.updated },
    { key: 'unchanged', value: r.unchanged },
    { key: 'deactivated', value: r.deactivated },
    { key: 'departments', value: r.departments },
    { key: 'classes', value: r.classes },
    ...(r.relinked > 0 ? [{ key: 'relinked', value: r.relinked }] : []),
    ...(r.skipped > 0 ? [{ key: 'skipped', value: r.skipped }] : []),
  ];
}

/** How long a job ran, in whole seconds (null while it runs or when a time is missing). */
export function syncSeconds(job: StudentSync): number | null {
  if (!job.finished_at) return null;
  const ms = Date.parse(job.finished_at) - Date.parse(job.started_at);
  return Number.isFinite(ms) && ms >= 0 ? Math.max(0, Math.round(ms / 1000)) : null;
}
