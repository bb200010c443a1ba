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

/** The label in the user's language: `label` for Indonesian, `label_en` for English. */
export function permissionLabel(p: Permission, lang: string): string {
  return lang === 'en' && p.label_en ? p.label_en : p.label;
}
