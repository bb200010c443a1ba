import type { ReactNode } from 'react';
import type { Icon } from '@tabler/icons-react';
import type { PermissionName } from '@/api/types';

/** A route or nav item open to everyone signed in. */
export const AUTHENTICATED = 'authenticated' as const;

export type RoutePermission = PermissionName | typeof AUTHENTICATED;

/**
 * A page a feature adds inside the app shell. Users without `permission` get the 403 page
 * (the server enforces the same permission on the API).
 */
export interface FeatureRoute {
  /** Absolute client path, e.g. "/users" or "/violations/:id". */
  path: string;
  element: ReactNode;
  permission: RoutePermission;
  /**
   * Other features' catalogues the page shows at any point (its own feature's is implied):
   * downloaded beside the page's code, and the page mounts once they are here, so no text
   * suspends it later and loses what was typed. `routeNamespaces.test.ts` checks the list
   * against what the page's modules use.
   */
  namespaces?: readonly string[];
  /**
   * Starts downloading the page's code (the same import its lazy element makes): the router
   * calls it at start-up when the address is this page's, beside the shell, instead of after.
   */
  preload?: () => Promise<unknown>;
}

/** An entry in the side navigation. */
export interface NavItem {
  /** i18n key, namespaced by the feature: "users:nav". */
  labelKey: string;
  icon: Icon;
  path: string;
  permission: RoutePermission;
  /** Lower comes first (dashboard 10, …, administration 900+). */
  order: number;
}

/**
 * What `src/features/<name>/index.ts(x)` exports. The registry finds every feature by
 * glob, so adding a feature never edits a shared file.
 */
export interface FeatureModule {
  routes?: FeatureRoute[];
  nav?: NavItem[];
}
