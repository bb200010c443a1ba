import { api } from '@/api/client';
import type { Source } from '@/features/violation-source/source';
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

export const earlyWarningsApi = {
  list: (p: { source: Source; kind: EarlyWarningKind | null; classId: number | null; page: number }, signal?: AbortSignal) =>
    api.get<EarlyWarningPage>(
      '/early-warnings',
      { source: p.source, kind: p.kind, class_id: p.classId, page: p.page, per_page: EARLY_WARNINGS_PER_PAGE },
      signal,
    ),
};
