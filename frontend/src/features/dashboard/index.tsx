import { IconLayoutDashboard } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { preloaded } from '@/app/preloaded';

// Preloaded at start-up on "/" and /dashboard (src/early.ts, app/router.tsx): once its code is
// here the page renders without suspending.
const { Component: DashboardPage, preload: loadPage } = preloaded(() => import('./pages/DashboardPage'));

/**
 * Most people's first screen after signing in ("/" leads here for every role that may see it).
 * Its route names the catalogues every dashboard shows; a card shown to some (pending excuses,
 * the principal's case counts) asks for its own when it appears.
 */
export const DASHBOARD_PATH = '/dashboard';

export const routes: FeatureRoute[] = [
  { path: DASHBOARD_PATH, element: <DashboardPage />, permission: 'dashboard.view', namespaces: ['violation-source'], preload: loadPage },
];

export const nav: NavItem[] = [
  { labelKey: 'dashboard:nav', icon: IconLayoutDashboard, path: '/dashboard', permission: 'dashboard.view', order: 10 },
];
