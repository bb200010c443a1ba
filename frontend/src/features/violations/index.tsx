import { lazy } from 'react';
import { IconAlertOctagon } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const ViolationsPage = lazy(() => import('./pages/ViolationsPage'));
const RecordPage = lazy(() => import('./pages/RecordPage'));
const ViolationPage = lazy(() => import('./pages/ViolationPage'));

// "/violations/new" is listed before "/violations/:id" (the router ranks static segments first anyway).
export const routes: FeatureRoute[] = [
  { path: paths.list, element: <ViolationsPage />, permission: 'violations.view' },
  { path: paths.record, element: <RecordPage />, permission: 'violations.record', namespaces: ['warning-letters'] },
  { path: '/violations/:id', element: <ViolationPage />, permission: 'violations.view' },
];

export const nav: NavItem[] = [{ labelKey: 'violations:nav', icon: IconAlertOctagon, path: paths.list, permission: 'violations.view', order: 100 }];
