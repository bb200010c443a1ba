/**
 * The class form's pure logic: what is stored, the local draft on top of it, bulk changes,
 * the entries a save sends, the summary counts and keyboard movement. No React here.
 */
import { BELUM, STATUSES, type AttendanceCell, type CellSource, type AttendanceEntry, type AttendanceForm, type AttendanceStatus, type CellStatus } from './types';

/** A cell's key: "<student id>:<lesson hour>". */
export function cellKey(studentId: number, hour: number): string {
  return `${studentId}:${hour}`;
}

export function parseKey(key: string): { studentId: number; hour: number } {
  const [s, h] = key.split(':');
  return { studentId: Number(s), hour: Number(h) };
}

/** What the server has stored, by cell key (belum cells are absent). */
export type Stored = ReadonlyMap<string, AttendanceCell>;

/** Local changes not saved yet, by cell key: only cells whose status differs from the stored one. */
export type Draft = Readonly<Record<string, AttendanceStatus>>;

export function storedCells(form: AttendanceForm): Map<string, AttendanceCell> {
  const out = new Map<string, AttendanceCell>();
  for (const st of form.students) {
    for (const c of st.cells) out.set(cellKey(st.id, c.lesson_hour), c);
  }
  return out;
}

/** Who set a stored cell last. */
export function sourceOf(cell: Pick<AttendanceCell, 'set_by' | 'from_journal'>): CellSource {
  return cell.set_by ?? (cell.from_journal ? 'journal' : 'user');
}

/** A person's entry (on the form, or an approved excuse): a journal push never overwrites it. */
export function isPersonEntry(cell: Pick<AttendanceCell, 'set_by' | 'from_journal'>): boolean {
  const s = sourceOf(cell);
  return s === 'user' || s === 'excuse';
}

/** The lesson hours 1..N. */
export function hoursOf(form: Pick<AttendanceForm, 'lesson_hours'>): number[] {
  return Array.from({ length: Math.max(0, form.lesson_hours) }, (_, i) => i + 1);
}

/** What a cell shows: the draft's status, else the stored one, else belum. */
export function effective(stored: Stored, draft: Draft, key: string): CellStatus {
  return draft[key] ?? stored.get(key)?.status ?? BELUM;
}

/**
 * Sets cells to a status. A status equal to what is stored drops the draft entry (nothing to
 * save). "belum" cannot delete a stored row (the API never deletes): it drops the unsaved
 * value, so the cell goes back to what is stored, or to belum when nothing is.
 */
export function setCells(draft: Draft, stored: Stored, keys: readonly string[], status: CellStatus): Draft {
  let next: Record<string, AttendanceStatus> | null = null;
  const edit = () => (next ??= { ...draft });
  for (const key of keys) {
    const storedStatus = stored.get(key)?.status;
    if (status === BELUM || status === storedStatus) {
      if (key in draft) delete edit()[key];
    } else if (draft[key] !== status) {
      edit()[key] = status;
    }
  }
  return next ?? draft;
}

/** Which cells a bulk change touches. */
export type BulkScope = { kind: 'class' } | { kind: 'hour'; hour: number } | { kind: 'student'; studentId: number };

export function scopeKeys(form: AttendanceForm, scope: BulkScope): string[] {
  const hours = hoursOf(form);
  const out: string[] = [];
  for (const st of form.students) {
    if (scope.kind === 'student' && st.id !== scope.studentId) continue;
    for (const h of hours) {
      if (scope.kind === 'hour' && h !== scope.hour) continue;
      out.push(cellKey(st.id, h));
    }
  }
  return out;
}

/**
 * The cells a bulk change sets. A bulk fills EMPTY cells only (those that show belum now, stored
 * or drafted), so a journal's I, a kiosk's T, another teacher's S or a typed A is never
 * overwritten by "everyone present"; `overwrite` is the explicit choice to set every cell of the
 * scope (the save then asks to confirm what others set). belum drops unsaved values, so it
 * always covers the whole scope.
 */
export function bulkKeys(stored: Stored, draft: Draft, form: AttendanceForm, scope: BulkScope, status: CellStatus, overwrite = false): string[] {
  const keys = scopeKeys(form, scope);
  if (overwrite || status === BELUM) return keys;
  return keys.filter((k) => effective(stored, draft, k) === BELUM);
}

/** A bulk change (see bulkKeys). */
export function applyBulk(
  draft: Draft,
  stored: Stored,
  form: AttendanceForm,
  scope: BulkScope,
  status: CellStatus,
  overwrite = false,
): Draft {
  return setCells(draft, stored, bulkKeys(stored, draft, form, scope, status, overwrite), status);
}

/**
 * The entries a save sends: the changed cells only (every draft entry differs from what is
 * stored and is never belum), in grid order so an error naming entries[i] maps back to a cell.
 */
export function toEntries(form: AttendanceForm, draft: Draft): AttendanceEntry[] {
  const out: AttendanceEntry[] = [];
  for (const st of form.students) {
    for (const h of hoursOf(form)) {
      const s = draft[cellKey(st.id, h)];
      if (s) out.push({ student_id: st.id, lesson_hour: h, status: s });
    }
  }
  return out;
}

/**
 * The draft once `sent` is stored: the cells saved leave it, a cell changed again while the save
 * was on its way stays.
 */
export function dropSaved(draft: Draft, sent: readonly AttendanceEntry[]): Draft {
  let next: Record<string, AttendanceStatus> | null = null;
  for (const e of sent) {
    const key = cellKey(e.student_id, e.lesson_hour);
    if (draft[key] === e.status) delete (next ??= { ...draft })[key];
  }
  return next ?? draft;
}

export function dirtyCount(draft: Draft): number {
  return Object.keys(draft).length;
}

export type StatusCounts = Record<AttendanceStatus, number>;

export interface Summary {
  /** Students with at least one hour of each status (a student with 3 A hours counts once). */
  students: StatusCounts;
  /** Students with no hour filled at all. */
  empty: number;
  /** Students with some but not all hours filled. */
  partial: number;
}

/** Unique students per status, of what the grid shows now (stored plus draft). */
export function summarize(form: AttendanceForm, stored: Stored, draft: Draft): Summary {
  const students: StatusCounts = { H: 0, S: 0, I: 0, A: 0, T: 0 };
  let empty = 0;
  let partial = 0;
  const hours = hoursOf(form);
  for (const st of form.students) {
    const seen = new Set<AttendanceStatus>();
    let filled = 0;
    for (const h of hours) {
      const s = effective(stored, draft, cellKey(st.id, h));
      if (s === BELUM) continue;
      filled++;
      seen.add(s);
    }
    for (const s of seen) students[s]++;
    if (filled === 0) empty++;
    else if (filled < hours.length) partial++;
  }
  return { students, empty, partial };
}

/** The status a key sets: H S I A T (either case), or belum for Backspace, Delete, 0 and -. */
export function statusForKey(key: string): CellStatus | null {
  const up = key.length === 1 ? key.toUpperCase() : key;
  if ((STATUSES as readonly string[]).includes(up)) return up as AttendanceStatus;
  if (key === 'Backspace' || key === 'Delete' || key === '0' || key === '-') return BELUM;
  return null;
}

/** A position in the grid: row 0 is the header row, column 0 the student names. */
export interface Pos {
  row: number;
  col: number;
}

/**
 * Where a key moves the focus in a grid of `rows` × `cols` positions (headers included), or
 * null when the key is not a movement. Stops at the edges (no wrapping).
 */
export function move(pos: Pos, key: string, rows: number, cols: number, ctrl = false, pageSize = 5): Pos | null {
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max - 1, v));
  switch (key) {
    case 'ArrowUp':
      return { row: clamp(pos.row - 1, rows), col: pos.col };
    case 'ArrowDown':
      return { row: clamp(pos.row + 1, rows), col: pos.col };
    case 'ArrowLeft':
      return { row: pos.row, col: clamp(pos.col - 1, cols) };
    case 'ArrowRight':
      return { row: pos.row, col: clamp(pos.col + 1, cols) };
    case 'Home':
      return ctrl ? { row: 0, col: 0 } : { row: pos.row, col: 0 };
    case 'End':
      return ctrl ? { row: rows - 1, col: cols - 1 } : { row: pos.row, col: cols - 1 };
    case 'PageUp':
      return { row: clamp(pos.row - pageSize, rows), col: pos.col };
    case 'PageDown':
      return { row: clamp(pos.row + pageSize, rows), col: pos.col };
    default:
      return null;
  }
}

/** Maps a save error's field ("entries[3].status", "entries.3") to the cell key it names. */
export function keyOfEntryField(field: string, sent: readonly AttendanceEntry[]): string | null {
  const m = /^entries[[.](\d+)/.exec(field);
  if (!m) return null;
  const e = sent[Number(m[1])];
  return e ? cellKey(e.student_id, e.lesson_hour) : null;
}
