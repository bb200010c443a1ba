/**
 * Semesters as the server names them (GET /students/{id}/achievements/certificate.pdf?year=&semester=,
 * the attendance hand-off's naming): year is the academic year's first calendar year, semester 1
 * starts on the academic year's first day and semester 2 six months later.
 */
export interface Term {
  year: number;
  semester: 1 | 2;
}

/** "2026-1" for a Select's value. */
export function termValue(t: Term): string {
  return `${t.year}-${t.semester}`;
}

export function parseTerm(v: string): Term | null {
  const m = /^(\d{4})-([12])$/.exec(v);
  return m ? { year: Number(m[1]), semester: Number(m[2]) as 1 | 2 } : null;
}

/** YYYY-MM-DD six months after start (a shorter month keeps its last day, as the server does). */
function sixMonthsAfter(start: string): string {
  const y = Number(start.slice(0, 4));
  const m = Number(start.slice(5, 7));
  const d = Number(start.slice(8, 10));
  const first = new Date(Date.UTC(y, m - 1 + 6, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/**
 * The semester holding today (YYYY-MM-DD, Jakarta) of the academic year starting on yearStart
 * (GET /academic-year's start), then the n - 1 before it, newest first.
 */
export function recentTerms(yearStart: string, today: string, n: number): Term[] {
  const year = Number(yearStart.slice(0, 4));
  let cur: Term = { year, semester: today >= sixMonthsAfter(yearStart) ? 2 : 1 };
  const out: Term[] = [];
  for (let i = 0; i < n; i++) {
    out.push(cur);
    cur = cur.semester === 2 ? { year: cur.year, semester: 1 } : { year: cur.year - 1, semester: 2 };
  }
  return out;
}
