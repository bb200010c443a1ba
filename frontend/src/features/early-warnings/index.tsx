import { lazy } from 'react';
import { IconUrgent } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const EarlyWarningsPage = lazy(() => import('./pages/EarlyWarningsPage'));

export const routes: FeatureRoute[] = [{ path: paths.list, element: <EarlyWarningsPage />, permission: 'early_warnings.view', namespaces: ['cases'] }];

export const nav: NavItem[] = [
  { labelKey: 'early-warnings:nav', icon: IconUrgent, path: paths.list, permission: 'early_warnings.view', order: 105 },
];
