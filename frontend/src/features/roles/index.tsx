import { lazy } from 'react';
import { IconShieldCheck } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const RolesPage = lazy(() => import('./pages/RolesPage'));

export const routes: FeatureRoute[] = [{ path: '/roles', element: <RolesPage />, permission: 'roles.manage' }];

export const nav: NavItem[] = [
  { labelKey: 'roles:nav', icon: IconShieldCheck, path: '/roles', permission: 'roles.manage', order: 910 },
];
