import type { PageMeta } from '@/api/types';
import { OUTCOMES, type FaceScanPage, type ScanOutcome } from './api';

/** The review page's tabs: the confirmation queue, or the scan log. */
export const TABS = ['confirmations', 'log'] as const;
export type ReviewTab = (typeof TABS)[number];

/** The page's state as kept in its URL (/wajah?tab=log&outcome=…&from=…&to=…&page=…). */
export interface ReviewFilters {
  tab: ReviewTab;
  outcome: ScanOutcome | '';
  /** Jakarta days, YYYY-MM-DD; '' = open-ended. */
  from: string;
  to: string;
  page: number;
}

export const DEFAULT_FILTERS: ReviewFilters = { tab: 'confirmations', outcome: '', from: '', to: '', page: 1 };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function positiveInt(v: string | null): number | null {
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

function oneOf<T extends string>(list: readonly T[], v: string | null): T | '' {
  return v !== null && (list as readonly string[]).includes(v) ? (v as T) : '';
}

function day(v: string | null): string {
  return v && DAY.test(v) ? v : '';
}

/** Reads the state from the URL; anything unreadable falls back to its default. */
export function filtersFromSearch(sp: URLSearchParams): ReviewFilters {
  let from = day(sp.get('from'));
  let to = day(sp.get('to'));
  // A range is both ends or none (as DateRangeFilter applies it).
  if (!from || !to) from = to = '';
  else if (from > to) [from, to] = [to, from];
  return {
    tab: oneOf(TABS, sp.get('tab')) || 'confirmations',
    outcome: oneOf(OUTCOMES, sp.get('outcome')),
    from,
    to,
    page: positiveInt(sp.get('page')) ?? 1,
  };
}

/** The URL form: defaults left out, so a plain /wajah stays plain. */
export function filtersToSearch(f: ReviewFilters): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.tab !== 'confirmations') sp.set('tab', f.tab);
  if (f.outcome) sp.set('outcome', f.outcome);
  if (f.from && f.to) {
    sp.set('from', f.from);
    sp.set('to', f.to);
  }
  if (f.page > 1) sp.set('page', String(f.page));
  return sp;
}

/** Applies a change; any change but the page itself goes back to page 1. */
export function changeFilters(f: ReviewFilters, change: Partial<ReviewFilters>): ReviewFilters {
  const next = { ...f, ...change };
  if (!('page' in change)) next.page = 1;
  return next;
}

/** Whether the log is narrowed by anything (the empty state then offers to clear it). */
export function isFiltered(f: ReviewFilters): boolean {
  return !!(f.outcome || f.from || f.to);
}

/** The filters cleared, on the same tab. */
export function clearedFilters(f: ReviewFilters): ReviewFilters {
  return { ...DEFAULT_FILTERS, tab: f.tab };
}

/** GET /face/scans's query (empty values are left out by the API client). */
export function scanQuery(f: ReviewFilters, perPage: number): Record<string, string | number> {
  const q: Record<string, string | number> = { page: f.page, per_page: perPage };
  if (f.outcome) q.outcome = f.outcome;
  if (f.from) q.from = f.from;
  if (f.to) q.to = f.to;
  return q;
}

/** The pager's figures from the log's answer ({data,total}, or the house's {data,meta}). */
export function pageMeta(res: FaceScanPage | undefined, page: number, perPage: number): PageMeta | undefined {
  if (!res) return undefined;
  if (res.meta) return res.meta;
  const total = res.total ?? res.data.length;
  return { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}
