import { lazy } from 'react';
import { IconAward, IconTrophy } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const AchievementsPage = lazy(() => import('./pages/AchievementsPage'));
const AchievementTypesPage = lazy(() => import('./pages/AchievementTypesPage'));

export const routes: FeatureRoute[] = [
  { path: paths.list, element: <AchievementsPage />, permission: 'achievements.view', namespaces: ['violations'] },
  { path: paths.types, element: <AchievementTypesPage />, permission: 'achievement_types.view' },
];

// Achievements beside violations; their types beside the violation types (master data).
export const nav: NavItem[] = [
  { labelKey: 'achievements:nav.list', icon: IconTrophy, path: paths.list, permission: 'achievements.view', order: 105 },
  { labelKey: 'achievements:nav.types', icon: IconAward, path: paths.types, permission: 'achievement_types.view', order: 815 },
];
