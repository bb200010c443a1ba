import { lazy } from 'react';
import { IconFileAlert, IconHistory } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const LettersPage = lazy(() => import('./pages/LettersPage'));
const LetterPage = lazy(() => import('./pages/LetterPage'));
const PointHistoryPage = lazy(() => import('./pages/PointHistoryPage'));

export const routes: FeatureRoute[] = [
  { path: paths.letters, element: <LettersPage />, permission: 'warning_letters.view' },
  { path: paths.letter, element: <LetterPage />, permission: 'warning_letters.view', namespaces: ['portal'] },
  { path: paths.pointHistory, element: <PointHistoryPage />, permission: 'point_audit.view' },
];

export const nav: NavItem[] = [
  { labelKey: 'warning-letters:nav.letters', icon: IconFileAlert, path: paths.letters, permission: 'warning_letters.view', order: 300 },
  { labelKey: 'warning-letters:nav.pointHistory', icon: IconHistory, path: paths.pointHistory, permission: 'point_audit.view', order: 310 },
];
