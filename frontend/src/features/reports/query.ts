import { parseSource, type Source } from '@/features/violation-source/source';
import type { RecapPeriodKind, RecapScopeKind } from './types';

/** The report's form, as it lives in the URL (the same names the API takes). */
export interface RecapForm {
  period: RecapPeriodKind;
  month: string;
  academicYear: number;
  semester: 1 | 2;
  from: string;
  to: string;
  scope: RecapScopeKind;
  classId: number;
  grade: number;
  departmentId: number;
  /** "Sumber" as the URL names it; null: the user's own (the page resolves it). */
  source: Source | null;
}

export const PERIOD_KINDS: RecapPeriodKind[] = ['month', 'semester', 'academic_year', 'range'];
export const SCOPE_KINDS: RecapScopeKind[] = ['school', 'class', 'grade', 'department'];

const isMonth = (v: string | null): v is string => !!v && /^\d{4}-\d{2}$/.test(v);
const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The academic year (its first calendar year) of a Jakarta day, starting in July. */
export function academicYearOf(today: string): number {
  const y = Number(today.slice(0, 4));
  return Number(today.slice(5, 7)) >= 7 ? y : y - 1;
}

/** Reads the form from the URL; anything missing or malformed takes this month, the whole school. */
export function formFromParams(sp: URLSearchParams, today: string): RecapForm {
  const period = (PERIOD_KINDS as string[]).includes(sp.get('period') ?? '') ? (sp.get('period') as RecapPeriodKind) : 'month';
  const scope = (SCOPE_KINDS as string[]).includes(sp.get('scope') ?? '') ? (sp.get('scope') as RecapScopeKind) : 'school';
  const ay = Number(sp.get('academic_year'));
  return {
    period,
    month: isMonth(sp.get('month')) ? sp.get('month')! : today.slice(0, 7),
    academicYear: ay >= 2000 && ay <= 2100 ? ay : academicYearOf(today),
    semester: sp.get('semester') === '2' ? 2 : 1,
    from: isDay(sp.get('from')) ? sp.get('from')! : today.slice(0, 8) + '01',
    to: isDay(sp.get('to')) ? sp.get('to')! : today,
    scope,
    classId: Number(sp.get('class_id')) || 0,
    grade: Number(sp.get('grade')) || 0,
    departmentId: Number(sp.get('department_id')) || 0,
    source: parseSource(sp.get('source')),
  };
}

/** The URL's parameters of a form (scope kind included, for the screen). */
export function formToParams(f: RecapForm): Record<string, string> {
  const out: Record<string, string> = { period: f.period, scope: f.scope };
  Object.assign(out, periodQuery(f));
  if (f.scope === 'class' && f.classId) out.class_id = String(f.classId);
  if (f.scope === 'grade' && f.grade) out.grade = String(f.grade);
  if (f.scope === 'department' && f.departmentId) out.department_id = String(f.departmentId);
  if (f.source) out.source = f.source;
  return out;
}

function periodQuery(f: RecapForm): Record<string, string> {
  switch (f.period) {
    case 'month':
      return { month: f.month };
    case 'semester':
      return { academic_year: String(f.academicYear), semester: String(f.semester) };
    case 'academic_year':
      return { academic_year: String(f.academicYear) };
    default:
      return { from: f.from, to: f.to };
  }
}

/**
 * The API query of a form: the period's own parameters only, and the scope's one parameter
 * (none for a homeroom teacher: the server gives them their class, and refuses anything else).
 * Null while the chosen scope has nothing picked yet.
 */
export function apiQuery(f: RecapForm, homeroom: boolean): Record<string, string> | null {
  const q: Record<string, string> = { period: f.period, ...periodQuery(f) };
  if (f.source) q.source = f.source;
  if (homeroom) return q;
  if (f.scope === 'class') {
    if (!f.classId) return null;
    q.class_id = String(f.classId);
  } else if (f.scope === 'grade') {
    if (!f.grade) return null;
    q.grade = String(f.grade);
  } else if (f.scope === 'department') {
    if (!f.departmentId) return null;
    q.department_id = String(f.departmentId);
  }
  return q;
}
