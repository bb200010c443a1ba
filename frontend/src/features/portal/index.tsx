import { lazy } from 'react';
import { IconUsersGroup } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const GuardiansPage = lazy(() => import('./pages/GuardiansPage'));

export const GUARDIANS_PATH = '/guardians';

export const routes: FeatureRoute[] = [{ path: GUARDIANS_PATH, element: <GuardiansPage />, permission: 'guardians.view' }];

export const nav: NavItem[] = [
  { labelKey: 'portal:nav', icon: IconUsersGroup, path: GUARDIANS_PATH, permission: 'guardians.view', order: 330 },
];
