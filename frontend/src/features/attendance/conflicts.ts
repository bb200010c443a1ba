/**
 * The journal-conflict notice's pure logic: cells where the journal sent one status and a
 * person had set another (kept), grouped per student and into runs of lesson hours, so the
 * notice reads "Jurnal mengirim A untuk jam 1–3; Anda mengisi S". No React here.
 */
import type { AttendanceForm, AttendanceStatus, JournalConflict } from './types';

/** A run of the same journal status against the same person's status, over some hours. */
export interface ConflictGroup {
  journalStatus: AttendanceStatus;
  status: AttendanceStatus;
  setByName: string;
  /** Ascending. */
  hours: number[];
}

/** One student's kept journal entries, as the notice shows them and answers them. */
export interface StudentConflicts {
  studentId: number;
  name: string;
  /** Ordered by their first hour. */
  groups: ConflictGroup[];
  /** Every cell of the student's conflicts: what "keep" or "use the journal" sends. */
  cells: { student_id: number; lesson_hour: number }[];
  /** The latest push that was kept out. */
  pushedAt: string;
}

/** Consecutive hours joined into runs: [1,2,3,5] → [[1,3],[5,5]]. Duplicates and order do not matter. */
export function hourRanges(hours: readonly number[]): [number, number][] {
  const sorted = [...new Set(hours)].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const h of sorted) {
    const last = out[out.length - 1];
    if (last && h === last[1] + 1) last[1] = h;
    else out.push([h, h]);
  }
  return out;
}

/** Runs written for a person: "1–3, 5" (an en dash inside a run). */
export function formatRanges(hours: readonly number[]): string {
  return hourRanges(hours)
    .map(([a, b]) => (a === b ? String(a) : `${a}–${b}`))
    .join(', ');
}

/**
 * The form's conflicts per student, in the form's order (by name); a conflict for a student no
 * longer on the form (left the class) is left out: there is no row to compare it with.
 */
export function groupConflicts(form: Pick<AttendanceForm, 'students' | 'journal_conflicts'>): StudentConflicts[] {
  const byStudent = new Map<number, JournalConflict[]>();
  for (const c of form.journal_conflicts ?? []) {
    const list = byStudent.get(c.student_id);
    if (list) list.push(c);
    else byStudent.set(c.student_id, [c]);
  }
  const out: StudentConflicts[] = [];
  for (const st of form.students) {
    const list = byStudent.get(st.id);
    if (!list) continue;
    list.sort((a, b) => a.lesson_hour - b.lesson_hour);
    const groups = new Map<string, ConflictGroup>();
    let pushedAt = '';
    for (const c of list) {
      const k = `${c.journal_status}|${c.status}|${c.set_by_name}`;
      const g = groups.get(k);
      if (g) {
        if (!g.hours.includes(c.lesson_hour)) g.hours.push(c.lesson_hour);
      } else groups.set(k, { journalStatus: c.journal_status, status: c.status, setByName: c.set_by_name, hours: [c.lesson_hour] });
      if (Date.parse(c.pushed_at) > Date.parse(pushedAt || '1970-01-01T00:00:00Z')) pushedAt = c.pushed_at;
    }
    out.push({
      studentId: st.id,
      name: st.full_name,
      groups: [...groups.values()],
      cells: list.map((c) => ({ student_id: c.student_id, lesson_hour: c.lesson_hour })),
      pushedAt,
    });
  }
  return out;
}
