import { lazy } from 'react';
import { IconHistory } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const AuditLogPage = lazy(() => import('./pages/AuditLogPage'));

export const routes: FeatureRoute[] = [{ path: '/audit-log', element: <AuditLogPage />, permission: 'audit.view' }];

/** Administration, just after users (900) and role access rights (910). */
export const nav: NavItem[] = [
  { labelKey: 'audit:nav', icon: IconHistory, path: '/audit-log', permission: 'audit.view', order: 920 },
];
