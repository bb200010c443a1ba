import { lazy } from 'react';
import { IconLayoutDashboard } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const DashboardPage = lazy(() => import('./pages/DashboardPage'));

export const routes: FeatureRoute[] = [{ path: '/dashboard', element: <DashboardPage />, permission: 'dashboard.view', namespaces: ['portal', 'violation-source', 'cases'] }];

export const nav: NavItem[] = [
  { labelKey: 'dashboard:nav', icon: IconLayoutDashboard, path: '/dashboard', permission: 'dashboard.view', order: 10 },
];
