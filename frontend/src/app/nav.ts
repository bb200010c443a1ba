import type { PermissionName } from '@/api/types';
import { AUTHENTICATED, type NavItem, type RoutePermission } from './feature';

/** Whether someone holding `permissions` may open something that needs `required`. */
export function allowed(required: RoutePermission, permissions: readonly PermissionName[]): boolean {
  return required === AUTHENTICATED || permissions.includes(required);
}

/** The nav items a user may see, in display order (by order, then path for stability). */
export function visibleNav(items: readonly NavItem[], permissions: readonly PermissionName[]): NavItem[] {
  return items
    .filter((item) => allowed(item.permission, permissions))
    .sort((a, b) => a.order - b.order || a.path.localeCompare(b.path));
}

/** Where "/" sends a user: the first page they may open, else their profile. */
export function homePath(items: readonly NavItem[], permissions: readonly PermissionName[]): string {
  return visibleNav(items, permissions)[0]?.path ?? '/profile';
}
