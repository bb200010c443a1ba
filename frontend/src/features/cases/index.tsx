import { lazy } from 'react';
import { IconFolderExclamation } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const CasesPage = lazy(() => import('./pages/CasesPage'));
const CasePage = lazy(() => import('./pages/CasePage'));

export const routes: FeatureRoute[] = [
  { path: paths.list, element: <CasesPage />, permission: 'cases.view' },
  { path: paths.detail, element: <CasePage />, permission: 'cases.view', namespaces: ['violations'] },
];

export const nav: NavItem[] = [{ labelKey: 'cases:nav', icon: IconFolderExclamation, path: paths.list, permission: 'cases.view', order: 98 }];
