import { IconLayoutDashboard } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
// In the first download with the app shell (app/router.tsx): most people's first screen after
// signing in, so it never waits for a chunk of its own.
import DashboardPage from './pages/DashboardPage';

/**
 * Most people's first screen after signing in ("/" leads here for every role that may see it).
 * Its route names the catalogues every dashboard shows; a card shown to some (pending excuses,
 * the principal's case counts) asks for its own when it appears.
 */
export const DASHBOARD_PATH = '/dashboard';

export const routes: FeatureRoute[] = [
  { path: DASHBOARD_PATH, element: <DashboardPage />, permission: 'dashboard.view', namespaces: ['violation-source', 'cases', 'portal'] },
];

export const nav: NavItem[] = [
  { labelKey: 'dashboard:nav', icon: IconLayoutDashboard, path: '/dashboard', permission: 'dashboard.view', order: 10 },
];
