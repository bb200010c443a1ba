import type { HandlingStatus } from './types';

/** The most violations one shared handling record covers (the server's limit too). */
export const MAX_SELECTION = 500;

/** What the list remembers of a chosen violation: enough to say who is in the selection. */
export interface Picked {
  id: number;
  student_id: number;
  handling_status: HandlingStatus;
}

/** The chosen violations by id, kept across pages of the list. */
export type Selection = ReadonlyMap<number, Picked>;

export const emptySelection: Selection = new Map();

/** A resolved violation takes no new handling record (reopen it first), so it cannot be chosen. */
export function selectable(v: Pick<Picked, 'handling_status'>): boolean {
  return v.handling_status !== 'resolved';
}

function pick(v: Picked): Picked {
  return { id: v.id, student_id: v.student_id, handling_status: v.handling_status };
}

/** Chooses v, or lets it go when chosen; a full selection or a resolved violation takes nothing new. */
export function toggle(sel: Selection, v: Picked): Selection {
  const next = new Map(sel);
  if (next.has(v.id)) next.delete(v.id);
  else if (selectable(v) && next.size < MAX_SELECTION) next.set(v.id, pick(v));
  else return sel;
  return next;
}

/** The header checkbox of a page: whether its selectable rows are all, some or none chosen. */
export function pageState(sel: Selection, rows: readonly Picked[]): 'all' | 'some' | 'none' {
  const open = rows.filter(selectable);
  const chosen = open.filter((v) => sel.has(v.id)).length;
  if (chosen === 0) return 'none';
  return chosen === open.length ? 'all' : 'some';
}

/** The header checkbox: a fully chosen page is let go, else its selectable rows are chosen (up to the limit). */
export function togglePage(sel: Selection, rows: readonly Picked[]): Selection {
  const next = new Map(sel);
  if (pageState(sel, rows) === 'all') {
    for (const v of rows) next.delete(v.id);
    return next;
  }
  for (const v of rows) {
    if (next.size >= MAX_SELECTION) break;
    if (selectable(v)) next.set(v.id, pick(v));
  }
  return next;
}

/** The chosen violations as the request sends them, ascending. */
export function selectedIds(sel: Selection): number[] {
  return [...sel.keys()].sort((a, b) => a - b);
}

/** How many students the selection covers. */
export function studentCount(sel: Selection): number {
  return new Set([...sel.values()].map((v) => v.student_id)).size;
}

/**
 * The selection after the list reloaded: a chosen row seen again takes its new status, and one
 * that became resolved (by another user, or by the bulk resolve) leaves the selection.
 */
export function refresh(sel: Selection, rows: readonly Picked[]): Selection {
  let next: Map<number, Picked> | null = null;
  for (const v of rows) {
    const had = sel.get(v.id);
    if (!had || had.handling_status === v.handling_status) continue;
    next ??= new Map(sel);
    if (selectable(v)) next.set(v.id, pick(v));
    else next.delete(v.id);
  }
  return next ?? sel;
}

/** The ids the server refused, from its field errors "violation_ids.N" (N the index in the ids sent). */
export function refusedIds(fields: Readonly<Record<string, string>>, sent: readonly number[]): number[] {
  const out: number[] = [];
  for (const key of Object.keys(fields)) {
    const m = /^violation_ids\.(\d+)$/.exec(key);
    const id = m ? sent[Number(m[1])] : undefined;
    if (id !== undefined) out.push(id);
  }
  return out.sort((a, b) => a - b);
}
