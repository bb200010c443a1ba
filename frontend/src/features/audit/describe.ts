import type { AuditEntry } from './api';

/**
 * Turns an audit entry's details (whatever shape the recording feature chose) into lines a
 * person reads: "Name: Alpha → Bolos" for a change, "Role: Staff" for a value. Keys that only
 * programs need (ids, timestamps, codes) are left to the "technical details" view.
 */

/** One readable line of the details. */
export interface DetailLine {
  /** The detail's key ("name", "sort_order"); labelled through the catalogue. */
  field: string;
  /** Set for a change. */
  before?: unknown;
  after?: unknown;
  /** Set for a plain value. */
  value?: unknown;
  changed: boolean;
}

/** Keys that say nothing to a school: shown only in the technical details. */
const TECHNICAL = new Set([
  'id',
  'created_at',
  'updated_at',
  'last_login_at',
  'error_code',
  'warning_codes',
  'type_ids',
  'logo_path',
  'seed',
  'source_id',
]);

/** The field a bare before/after pair is about, per action. */
const BARE_FIELD: Readonly<Record<string, string>> = {
  'class.homeroom_teacher.update': 'homeroom_teacher',
  'sp_threshold.replace': 'thresholds',
};

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function isFromTo(v: unknown): v is { from: unknown; to: unknown } {
  return isObj(v) && 'from' in v && 'to' in v && Object.keys(v).length === 2;
}

/** The readable lines of an entry's details, changes first. */
export function detailLines(action: string, details: unknown): DetailLine[] {
  if (!isObj(details)) return [];
  const changes: DetailLine[] = [];
  const values: DetailLine[] = [];
  const rest: Obj = { ...details };

  if ('before' in details && 'after' in details) {
    const { before, after } = details;
    delete rest.before;
    delete rest.after;
    if (isObj(before) || isObj(after)) {
      const b = isObj(before) ? before : {};
      const a = isObj(after) ? after : {};
      for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
        if (TECHNICAL.has(k) || same(b[k], a[k])) continue;
        changes.push({ field: k, before: b[k], after: a[k], changed: true });
      }
    } else if (!same(before, after)) {
      changes.push({ field: BARE_FIELD[action] ?? 'value', before, after, changed: true });
    }
  }

  for (const [k, v] of Object.entries(rest)) {
    if (TECHNICAL.has(k)) continue;
    if (isFromTo(v)) changes.push({ field: k, before: v.from, after: v.to, changed: true });
    else values.push({ field: k, value: v, changed: false });
  }
  return [...changes, ...values];
}

/** The record the entry is about, in words where the details name it ("Alpha", "guru.staf"). */
export function targetName(entry: Pick<AuditEntry, 'details' | 'entity_id'>): string {
  const d = isObj(entry.details) ? entry.details : {};
  const pick = (o: unknown): string => {
    if (!isObj(o)) return '';
    for (const k of ['name', 'teacher', 'username']) {
      const v = o[k];
      if (typeof v === 'string' && v) return v;
      if (isFromTo(v) && typeof v.to === 'string' && v.to) return v.to;
    }
    return '';
  };
  return pick(d) || pick(d.after) || pick(d.before);
}

/** The system actors the server records without a user, by their stored name. */
export const SYSTEM_ACTORS: Readonly<Record<string, string>> = {
  'sistem (demo)': 'actors.demo',
  'sistem (jadwal)': 'actors.schedule',
};

/**
 * Who did it: the person's name (the server's actor_display_name, or the signed-in user's own
 * name for their own entries), else the username; the system by what it was doing.
 */
export function actorLabel(
  entry: Pick<AuditEntry, 'actor_id' | 'actor_name'> & { actor_display_name?: string },
  t: (key: string) => string,
  me?: { id: number; name: string },
): string {
  if (entry.actor_id === null) {
    const key = Object.hasOwn(SYSTEM_ACTORS, entry.actor_name) ? SYSTEM_ACTORS[entry.actor_name]! : 'system';
    return t(key);
  }
  if (entry.actor_display_name) return entry.actor_display_name;
  if (me && entry.actor_id === me.id && me.name) return me.name;
  return entry.actor_name || t('system');
}

/** i18next's t as the formatters use it. */
export type T = (key: string, options?: Record<string, unknown>) => string;

/** "sort_order" → "Sort order": the last resort for a key the catalogue does not know. */
export function humanize(key: string): string {
  const s = key.replace(/_/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The label of a detail's key in the reader's language. */
export function fieldLabel(field: string, t: T): string {
  return t(`detailFields.${field}`, { defaultValue: humanize(field) });
}

const COLOURS = new Set(['dark', 'gray', 'red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime', 'yellow', 'orange']);

/** A detail's value as text: yes/no, numbers with the language's separators, roles and colours by name. */
export function formatValue(field: string, v: unknown, t: T, num: (n: number) => string): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? t('yes') : t('no');
  if (typeof v === 'number') {
    if (field === 'homeroom_teacher' || field === 'before' || field === 'after') return t('userNumber', { id: v });
    return num(v);
  }
  if (typeof v === 'string') {
    if (field === 'role') return t(`common:role.${v}`, { defaultValue: v });
    if (field === 'colour' && COLOURS.has(v)) return t(`colours.${v}`);
    return v;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return '—';
    return v.map((x) => formatValue(field, x, t, num)).join(isObj(v[0]) ? '; ' : ', ');
  }
  if (isObj(v)) {
    return Object.entries(v)
      .filter(([k]) => !TECHNICAL.has(k))
      .map(([k, x]) => `${fieldLabel(k, t)}: ${formatValue(k, x, t, num)}`)
      .join(', ');
  }
  return String(v);
}
