import { lazy } from 'react';
import { IconAlertTriangle, IconChecklist, IconListDetails } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const TypesPage = lazy(() => import('./pages/TypesPage'));
const ImportPage = lazy(() => import('./pages/ImportPage'));
const ThresholdsPage = lazy(() => import('./pages/ThresholdsPage'));
const HandlingTypesPage = lazy(() => import('./pages/HandlingTypesPage'));

export const routes: FeatureRoute[] = [
  { path: paths.types, element: <TypesPage />, permission: 'violation_types.view', namespaces: ['achievements'] },
  { path: paths.import, element: <ImportPage />, permission: 'violation_types.manage' },
  { path: paths.thresholds, element: <ThresholdsPage />, permission: 'violation_types.view', namespaces: ['achievements'] },
  { path: paths.handling, element: <HandlingTypesPage />, permission: 'violation_types.view' },
];

export const nav: NavItem[] = [
  { labelKey: 'violation-types:nav.types', icon: IconListDetails, path: paths.types, permission: 'violation_types.view', order: 800 },
  { labelKey: 'violation-types:nav.thresholds', icon: IconAlertTriangle, path: paths.thresholds, permission: 'violation_types.view', order: 810 },
  { labelKey: 'violation-types:nav.handling', icon: IconChecklist, path: paths.handling, permission: 'violation_types.view', order: 820 },
];
