/**
 * "Sumber": which violations a screen counts. Behaviour is every violation that is not an
 * automatic attendance one, attendance the automatic alpha/late ones, all both. The list,
 * the export, the dashboard, the reports and the early warnings share it (server:
 * violationlist.ParseSource).
 */
export const SOURCES = ['behaviour', 'attendance', 'all'] as const;
export type Source = (typeof SOURCES)[number];

/** Reads a source from a URL value; `manual` is behaviour's older name. Anything else is null. */
export function parseSource(v: string | null | undefined): Source | null {
  if (v === 'manual') return 'behaviour';
  return (SOURCES as readonly string[]).includes(v ?? '') ? (v as Source) : null;
}

/**
 * The source a screen shows: the one its URL names (a dashboard figure's link, a bookmark,
 * a choice just made), else the user's own remembered one. Null while neither is known yet,
 * so the screen does not ask for "all" first and its source a moment later; when the
 * preference cannot be read at all the screen shows everything.
 */
export function effectiveSource(fromUrl: Source | null, preference: Source | undefined, preferenceFailed = false): Source | null {
  return fromUrl ?? preference ?? (preferenceFailed ? 'all' : null);
}

/** A copy of `sp` that names `source`. */
export function withSource(sp: URLSearchParams, source: Source): URLSearchParams {
  const next = new URLSearchParams(sp);
  next.set('source', source);
  return next;
}

/** `link` (a path, perhaps with a query) with more query parameters. */
export function withQuery(link: string, params: Record<string, string>): string {
  const [path, query = ''] = link.split('?', 2) as [string, string?];
  const sp = new URLSearchParams(query);
  for (const [k, v] of Object.entries(params)) sp.set(k, v);
  const qs = sp.toString();
  return qs ? `${path}?${qs}` : path!;
}

/** The early-warning kinds each source shows, in the page's order (server: api.EarlyWarningKindsOf). */
export const EARLY_WARNING_KINDS_OF = {
  behaviour: ['follow_up_due', 'repeat_type', 'near_level'],
  attendance: ['follow_up_due', 'absent_streak', 'late_repeat', 'near_level'],
  all: ['follow_up_due', 'absent_streak', 'late_repeat', 'repeat_type', 'near_level'],
} as const satisfies Record<Source, readonly string[]>;

/** A kind kept when the source changes, or null (every kind) when the new source has no such kind. */
export function kindWithin<K extends string>(kind: K | null, source: Source): K | null {
  return kind && (EARLY_WARNING_KINDS_OF[source] as readonly string[]).includes(kind) ? kind : null;
}
