import dayjs from 'dayjs';
import type { LetterStatus } from './api';

/** At most this many letters print in one batch (the server's limit). */
export const MAX_BATCH = 200;

/** What the list remembers of a chosen letter, so a choice survives paging and filtering. */
export interface ChosenLetter {
  id: number;
  status: LetterStatus | string;
}

/** The letters chosen for a batch print, in the order they were chosen. */
export type Selection = ReadonlyMap<number, ChosenLetter>;

export const EMPTY_SELECTION: Selection = new Map();

/** A withdrawn letter is not printed any more: it cannot be chosen. */
export function printable(l: { status: LetterStatus | string }): boolean {
  return l.status !== 'withdrawn';
}

/** Chooses the letter, or lets it go when it was chosen; a withdrawn letter is never chosen. */
export function toggle(sel: Selection, l: ChosenLetter): Selection {
  const next = new Map(sel);
  if (next.has(l.id)) next.delete(l.id);
  else if (printable(l)) next.set(l.id, { id: l.id, status: l.status });
  return next;
}

/** Whether the page's printable letters are all, some or none of them chosen. */
export function pageState(sel: Selection, rows: readonly ChosenLetter[]): 'all' | 'some' | 'none' {
  const own = rows.filter(printable);
  const chosen = own.filter((l) => sel.has(l.id)).length;
  if (chosen === 0) return 'none';
  return chosen === own.length ? 'all' : 'some';
}

/** The header checkbox: chooses every printable letter of the page, or, when all are, none of them. */
export function togglePage(sel: Selection, rows: readonly ChosenLetter[]): Selection {
  const next = new Map(sel);
  if (pageState(sel, rows) === 'all') {
    for (const l of rows) next.delete(l.id);
  } else {
    for (const l of rows.filter(printable)) next.set(l.id, { id: l.id, status: l.status });
  }
  return next;
}

/** The ids to send, in the order chosen; past the batch limit is left for the next print. */
export function batchIds(sel: Selection): { ids: number[]; left: number } {
  const ids = [...sel.keys()];
  return { ids: ids.slice(0, MAX_BATCH), left: Math.max(0, ids.length - MAX_BATCH) };
}

/** How many of the chosen letters are drafts (they become "printed" with the batch). */
export function draftCount(sel: Selection): number {
  let n = 0;
  for (const l of sel.values()) if (l.status === 'draft') n++;
  return n;
}

/** The school week of a Jakarta day (YYYY-MM-DD): Monday to Sunday. */
export function weekOf(day: string): { from: string; to: string } {
  const d = dayjs(day, 'YYYY-MM-DD');
  // dayjs counts Sunday as 0; the school week starts on Monday.
  const monday = d.subtract((d.day() + 6) % 7, 'day');
  return { from: monday.format('YYYY-MM-DD'), to: monday.add(6, 'day').format('YYYY-MM-DD') };
}

/** The download name when the server suggests none: "Surat-Peringatan-<day>-<n>-surat.pdf". */
export function batchFileName(count: number, day: string): string {
  return `Surat-Peringatan-${day}-${count}-surat.pdf`;
}
