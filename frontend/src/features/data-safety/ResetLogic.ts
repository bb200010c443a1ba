/** The choice of data sets: what a set brings with it, and why. */

interface SetDeps<Id extends string = string> {
  id: Id;
  requires: Id[];
}

/**
 * The chosen sets plus everything they require, transitively, in the order of `sets`.
 */
export function withRequired<Id extends string>(chosen: Iterable<Id>, sets: SetDeps<Id>[]): Id[] {
  const byId = new Map(sets.map((s) => [s.id, s]));
  const out = new Set<Id>();
  const visit = (id: Id) => {
    if (out.has(id)) return;
    out.add(id);
    for (const r of byId.get(id)?.requires ?? []) visit(r);
  };
  for (const id of chosen) visit(id);
  return sets.map((s) => s.id).filter((id) => out.has(id));
}

/**
 * For each set in `selected` that another selected set requires: the ids of the sets that
 * require it. Such a set cannot be unticked on its own; the screen says which sets hold it.
 */
export function requiredBy<Id extends string>(selected: Id[], sets: SetDeps<Id>[]): Record<string, Id[]> {
  const out: Record<string, Id[]> = {};
  for (const s of sets) {
    if (!selected.includes(s.id)) continue;
    for (const r of s.requires) {
      if (!selected.includes(r)) continue;
      (out[r] ??= []).push(s.id);
    }
  }
  return out;
}

/** Ticking or unticking one set; a set held by another stays ticked. */
export function toggle<Id extends string>(selected: Id[], id: Id, sets: SetDeps<Id>[]): Id[] {
  if (!selected.includes(id)) return withRequired([...selected, id], sets);
  if (requiredBy(selected, sets)[id]?.length) return selected;
  return selected.filter((x) => x !== id);
}
