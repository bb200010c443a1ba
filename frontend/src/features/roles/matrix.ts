import type { PermissionName, Role } from '@/api/types';
import type { Permission, RoleInfo } from './api';

export interface PermissionGroup {
  group: string;
  permissions: Permission[];
}

/** Groups the catalogue by area, keeping the server's order of groups and of permissions. */
export function groupPermissions(catalogue: readonly Permission[]): PermissionGroup[] {
  const out: PermissionGroup[] = [];
  for (const p of catalogue) {
    let g = out.find((x) => x.group === p.group);
    if (!g) {
      g = { group: p.group, permissions: [] };
      out.push(g);
    }
    g.permissions.push(p);
  }
  return out;
}

export type Draft = Partial<Record<Role, PermissionName[]>>;

/** Whether a role's draft differs from what the server has (order does not matter). */
export function isDirty(role: RoleInfo, draft: Draft): boolean {
  const d = draft[role.role];
  if (!d) return false;
  const a = new Set(d);
  return a.size !== role.permissions.length || role.permissions.some((p) => !a.has(p));
}

/** Toggles one permission in a role's draft, starting from the saved set. */
export function toggle(draft: Draft, role: RoleInfo, permission: PermissionName, on: boolean): Draft {
  const current = new Set(draft[role.role] ?? role.permissions);
  if (on) current.add(permission);
  else current.delete(permission);
  return { ...draft, [role.role]: [...current] };
}

/**
 * Whether a cell cannot be changed: the admin column (always everything) and every admin-only
 * permission (the administrator's alone; the server refuses to give it to another role).
 */
export function cellLocked(role: RoleInfo, p: Permission): boolean {
  return role.locked || p.admin_only;
}

/** How many cells (role × permission) differ from what the server has, over every role. */
export function changeCount(roles: readonly RoleInfo[], draft: Draft): number {
  let n = 0;
  for (const r of roles) {
    const d = draft[r.role];
    if (!d) continue;
    const now = new Set(d);
    const saved = new Set(r.permissions);
    for (const p of now) if (!saved.has(p)) n++;
    for (const p of saved) if (!now.has(p)) n++;
  }
  return n;
}

/** The roles whose draft differs from what the server has, in the server's order. */
export function dirtyRoles(roles: readonly RoleInfo[], draft: Draft): RoleInfo[] {
  return roles.filter((r) => isDirty(r, draft));
}

/** What a sensitive permission allows, in the user's language ('' for the others). */
export function permissionAllows(p: Permission, lang: string): string {
  if (!p.sensitive) return '';
  return (lang === 'en' ? p.allows_en || p.allows : p.allows || p.allows_en) ?? '';
}

/** The label in the user's language: `label` for Indonesian, `label_en` for English. */
export function permissionLabel(p: Permission, lang: string): string {
  return lang === 'en' && p.label_en ? p.label_en : p.label;
}
