import { api } from '@/api/client';
import { parseSource, type Source } from '@/features/violation-source/source';
import { field, id, type FiltersOf } from '@/lib/urlFilters';
import type { Schema } from '@/api';

/** Wire types: shared/api/earlywarnings.go. */

export type EarlyWarningKind = 'follow_up_due' | 'absent_streak' | 'late_repeat' | 'repeat_type' | 'near_level';

/** The order the page shows the kinds in (the server's too); each source shows some (EARLY_WARNING_KINDS_OF). */
export const EARLY_WARNING_KINDS: EarlyWarningKind[] = ['follow_up_due', 'absent_streak', 'late_repeat', 'repeat_type', 'near_level'];

export type EarlyWarningAction = Schema<'EarlyWarning'>['action'];

export type EarlyWarning = Schema<'EarlyWarning'>;

export type EarlyWarningCounts = Schema<'EarlyWarningCounts'>;

export type EarlyWarningPage = Schema<'EarlyWarningPage'>;

export const EARLY_WARNINGS_PER_PAGE = 20;

/** A kind the page knows, or null (every kind). */
export function parseKind(v: string | null): EarlyWarningKind | null {
  return EARLY_WARNING_KINDS.find((k) => k === v) ?? null;
}

/**
 * The page's filters, as kept in its URL (?source=&kind=&class_id=&page=). No source: the
 * user's own (the page resolves it); a kind the source does not have is the page's to drop.
 */
export const earlyWarningFilters = {
  source: field<Source | null>('source', null, (raw) => parseSource(raw) ?? undefined, (v) => v ?? ''),
  kind: field<EarlyWarningKind | null>('kind', null, (raw) => parseKind(raw) ?? undefined, (v) => v ?? ''),
  classId: id('class_id'),
};

export type EarlyWarningFilters = FiltersOf<typeof earlyWarningFilters>;

export const earlyWarningsApi = {
  list: (p: { source: Source; kind: EarlyWarningKind | null; classId: number | null; page: number }, signal?: AbortSignal) =>
    api.get<EarlyWarningPage>(
      '/early-warnings',
      { source: p.source, kind: p.kind, class_id: p.classId, page: p.page, per_page: EARLY_WARNINGS_PER_PAGE },
      signal,
    ),
};
