import type { PermissionName, Role } from '@/api/types';
import type { NavItem } from '@/app/feature';
import { visibleNav } from '@/app/nav';

/** The dashboard's own path: never a landing page while it has nothing to show. */
export const DASHBOARD_PATH = '/dashboard';

/** A class as GET /classes lists it; only what the landing needs. */
export interface HomeroomClass {
  id: number;
  homeroom_teacher: { id: number } | null;
}

export interface LandingInput {
  role: Role;
  userId: number;
  permissions: readonly PermissionName[];
  items: readonly NavItem[];
  /** The classes the user can see (a homeroom teacher sees their own); undefined when not fetched. */
  classes?: readonly HomeroomClass[];
}

/** The homeroom teacher's own class, when the list shows it. */
export function homeroomClassId(userId: number, classes: readonly HomeroomClass[] | undefined): number | null {
  return classes?.find((c) => c.homeroom_teacher?.id === userId)?.id ?? null;
}

/** The lists the dashboard summarises: with any of them the dashboard shows figures. */
export const FIGURE_PERMISSIONS: readonly PermissionName[] = ['violations.view', 'attendance.view', 'warning_letters.view', 'early_warnings.view'];

/** Whether the dashboard has figures for someone with these permissions (else: the landing). */
export function hasFigures(permissions: readonly PermissionName[]): boolean {
  return FIGURE_PERMISSIONS.some((p) => permissions.includes(p));
}

/** Whether the landing needs the class list first (a homeroom teacher who may see students). */
export function needsClasses(role: Role, permissions: readonly PermissionName[]): boolean {
  return role === 'wali_kelas' && permissions.includes('students.view');
}

/**
 * Where someone lands when the dashboard has no figures for them: the page their work starts on.
 * A homeroom teacher: the students of their class; a counselor (BK): the students list;
 * anyone else: the first page the menu offers them. null when there is no such page.
 */
export function landingPath({ role, userId, permissions, items, classes }: LandingInput): string | null {
  if (permissions.includes('students.view')) {
    if (role === 'wali_kelas') {
      const id = homeroomClassId(userId, classes);
      return id ? `/students?class_id=${id}` : '/students';
    }
    if (role === 'bk') return '/students';
  }
  return visibleNav(items, permissions).find((i) => i.path !== DASHBOARD_PATH)?.path ?? null;
}
