import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { currentSearch } from './currentSearch';

/**
 * A list page's filters kept in its URL, declared once as a schema of typed fields:
 *
 *   const schema = { q: text('q'), classId: id('class_id'), status: oneOf('status', STATUSES) };
 *   const { filters, update, reset } = useUrlFilters(schema);   // filters.page is always there
 *
 * Reading takes what it can and falls back to each field's default for anything absent or
 * unreadable; writing leaves defaults out, so a plain page keeps a plain URL; any change but
 * the page itself goes back to page 1.
 */
export interface UrlField<T> {
  /** The value in the URL; undefined when it is absent or unreadable (the default then). */
  read(sp: URLSearchParams): T | undefined;
  /** Puts a value that is not the default into the URL. */
  write(value: T, sp: URLSearchParams): void;
  /** The value when the URL has none (a function when it depends on the day). */
  initial: T | (() => T);
  /** Whether two values are the same (the default is left out of the URL); === when not given. */
  same?(a: T, b: T): boolean;
}

export type UrlSchema = Record<string, UrlField<unknown>>;

type ValueOf<F> = F extends UrlField<infer T> ? T : never;

/** The filters a schema describes, with the page every list has. */
export type FiltersOf<S> = { [K in keyof S]: ValueOf<S[K]> } & { page: number };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A whole number above zero, or undefined. */
export function positiveInt(v: string | null): number | undefined {
  if (!v || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : undefined;
}

/** A field kept under one URL key: `parse` returns undefined for what it cannot read; `format` '' leaves it out. */
export function field<T>(key: string, initial: T, parse: (raw: string) => T | undefined, format: (v: T) => string = String): UrlField<T> {
  return {
    read: (sp) => {
      const raw = sp.get(key);
      return raw === null ? undefined : parse(raw);
    },
    write: (v, sp) => {
      const s = format(v);
      if (s !== '') sp.set(key, s);
    },
    initial,
  };
}

/** Free text (a search box): at most `max` characters, trimmed in the URL. */
export function text(key: string, max = 100): UrlField<string> {
  return field(key, '', (raw) => raw.slice(0, max), (v) => v.trim());
}

/** A record's id; null for none. */
export function id(key: string): UrlField<number | null> {
  return field<number | null>(key, null, positiveInt, (v) => (v ? String(v) : ''));
}

/** One of a list of words; '' (none) by default, or the default given. */
export function oneOf<T extends string>(key: string, list: readonly T[]): UrlField<T | ''>;
export function oneOf<T extends string>(key: string, list: readonly T[], initial: T): UrlField<T>;
export function oneOf<T extends string>(key: string, list: readonly T[], initial: T | '' = ''): UrlField<T | ''> {
  return field<T | ''>(key, initial, (raw) => ((list as readonly string[]).includes(raw) ? (raw as T) : undefined));
}

/** A Jakarta day, YYYY-MM-DD; '' for none. */
export function day(key: string): UrlField<string> {
  return field(key, '', (raw) => (DAY.test(raw) ? raw : undefined));
}

/** A switch: "true" in the URL when on. */
export function flag(key: string): UrlField<boolean> {
  return field(key, false, (raw) => (raw === 'true' ? true : undefined), (v) => (v ? 'true' : ''));
}

/** A period: YYYY-MM-DD days, '' for an open end. */
export interface Period {
  from: string;
  to: string;
}

const NO_PERIOD: Period = { from: '', to: '' };

/**
 * A period kept as ?from=&to=. Either both ends or none (as DateRangeFilter applies it), put in
 * order; or, with `initial` (e.g. this month) and `allKey`, a page that opens on a period by
 * default: `allKey=all` is "every date", a period other than the default keeps its ends as they are.
 */
export function period(opts: { from?: string; to?: string; initial?: () => Period; allKey?: string } = {}): UrlField<Period> {
  const { from: fromKey = 'from', to: toKey = 'to', initial, allKey } = opts;
  const valid = (v: string | null) => (v && DAY.test(v) ? v : '');
  return {
    read: (sp) => {
      if (allKey && sp.get(allKey) === 'all') return NO_PERIOD;
      if (initial) {
        if (!sp.has(fromKey) && !sp.has(toKey)) return undefined;
        return { from: valid(sp.get(fromKey)), to: valid(sp.get(toKey)) };
      }
      const from = valid(sp.get(fromKey));
      const to = valid(sp.get(toKey));
      if (!from || !to) return undefined;
      return from > to ? { from: to, to: from } : { from, to };
    },
    write: (v, sp) => {
      if (!v.from && !v.to) {
        if (allKey) sp.set(allKey, 'all');
        return;
      }
      if (!initial && !(v.from && v.to)) return;
      if (v.from) sp.set(fromKey, v.from);
      if (v.to) sp.set(toKey, v.to);
    },
    initial: initial ?? NO_PERIOD,
    same: (a, b) => a.from === b.from && a.to === b.to,
  };
}

/** The list's page, 1 by default. Every schema has it (last in the URL unless the schema places it). */
export function page(key = 'page'): UrlField<number> {
  return field(key, 1, positiveInt, (v) => (v > 1 ? String(v) : ''));
}

const PAGE = page();

function initialOf<T>(f: UrlField<T>): T {
  return typeof f.initial === 'function' ? (f.initial as () => T)() : f.initial;
}

function fieldsOf(schema: UrlSchema): [string, UrlField<unknown>][] {
  const fields = Object.entries(schema);
  return 'page' in schema ? fields : [...fields, ['page', PAGE]];
}

/** Every field at its default, page 1. */
export function defaultFilters<S extends UrlSchema>(schema: S): FiltersOf<S> {
  return Object.fromEntries(fieldsOf(schema).map(([k, f]) => [k, initialOf(f)])) as FiltersOf<S>;
}

/** Reads the filters from a URL query; anything absent or unreadable is its default. */
export function readFilters<S extends UrlSchema>(schema: S, sp: URLSearchParams): FiltersOf<S> {
  return Object.fromEntries(fieldsOf(schema).map(([k, f]) => [k, f.read(sp) ?? initialOf(f)])) as FiltersOf<S>;
}

/** The URL query of the filters, in the schema's order, defaults left out. */
export function writeFilters<S extends UrlSchema>(schema: S, filters: FiltersOf<S>): URLSearchParams {
  const sp = new URLSearchParams();
  const values = filters as Record<string, unknown>;
  for (const [k, f] of fieldsOf(schema)) {
    const v = values[k];
    const d = initialOf(f);
    if (f.same ? f.same(v, d) : v === d) continue;
    f.write(v, sp);
  }
  return sp;
}

/** Applies a change; any change but the page itself goes back to page 1. */
export function changeFilters<F extends { page: number }>(filters: F, change: Partial<F>): F {
  const next = { ...filters, ...change };
  if (!('page' in change)) next.page = 1;
  return next;
}

export interface UrlFilters<S extends UrlSchema> {
  /** The filters as the URL has them. */
  filters: FiltersOf<S>;
  /** Changes some filters (page 1 unless the page is what changes); replaces the history entry unless `push`. */
  update: (change: Partial<FiltersOf<S>>, opts?: { push?: boolean }) => void;
  /** Every filter back to its default, but those in `keep`. */
  reset: (keep?: Partial<FiltersOf<S>>) => void;
}

/** The page's filters kept in its URL by `schema` (keep the schema a module constant). */
export function useUrlFilters<S extends UrlSchema>(schema: S): UrlFilters<S> {
  const [sp, setSp] = useSearchParams();
  const filters = useMemo(() => readFilters(schema, sp), [schema, sp]);
  // A change builds on the URL as it is now (currentSearch), not as this render saw it: a
  // debounced search firing just after another filter changed must not put the old one back.
  const update = (change: Partial<FiltersOf<S>>, opts?: { push?: boolean }) =>
    setSp(writeFilters(schema, changeFilters(readFilters(schema, currentSearch()), change)), { replace: !opts?.push });
  const reset = (keep: Partial<FiltersOf<S>> = {}) => setSp(writeFilters(schema, { ...defaultFilters(schema), ...keep }), { replace: true });
  return { filters, update, reset };
}
