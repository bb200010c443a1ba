import type { WarningLetter } from './api';

/** What the letter page offers about telling the parent. */
export type SendState =
  /** Not sent at all yet: "Kirim ke orang tua". */
  | 'unsent'
  /** Sent at an earlier, lower level and raised since: it may be sent again. */
  | 'raised'
  /** Sent at its level now: nothing to send. */
  | 'sent'
  /** Withdrawn, or of an ended academic year: nothing can be sent. */
  | 'closed';

/** Where a letter stands with the parent (the server refuses the same cases with 409). */
export function sendState(l: Pick<WarningLetter, 'status' | 'level' | 'past_year' | 'sent_level'>): SendState {
  if (l.status === 'withdrawn' || l.past_year) return 'closed';
  if (l.sent_level === null || l.sent_level === undefined) return 'unsent';
  return l.sent_level === l.level ? 'sent' : 'raised';
}

/** The levels a letter covers: the server's list, else its one level. */
export function levelsOf(l: Pick<WarningLetter, 'level'> & Partial<Pick<WarningLetter, 'levels_covered'>>): number[] {
  return l.levels_covered?.length ? l.levels_covered : [l.level];
}
