import { lazy } from 'react';
import { IconSettings } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const SettingsPage = lazy(() => import('./pages/SettingsPage'));

// Each tab checks its own permission (School profile: settings.view; Integrations: settings.manage).
export const routes: FeatureRoute[] = [
  { path: '/settings', element: <SettingsPage />, permission: 'settings.view', namespaces: ['achievements', 'attendance-recap', 'parent-messages', 'students', 'warning-letters'] },
  { path: '/settings/:tab', element: <SettingsPage />, permission: 'settings.view', namespaces: ['achievements', 'attendance-recap', 'parent-messages', 'students', 'warning-letters'] },
];

export const nav: NavItem[] = [{ labelKey: 'settings:nav', icon: IconSettings, path: '/settings', permission: 'settings.view', order: 880 }];
