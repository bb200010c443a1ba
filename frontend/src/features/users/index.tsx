import { lazy } from 'react';
import { IconUsers } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const UsersPage = lazy(() => import('./pages/UsersPage'));

export const routes: FeatureRoute[] = [{ path: '/users', element: <UsersPage />, permission: 'users.view' }];

export const nav: NavItem[] = [{ labelKey: 'users:nav', icon: IconUsers, path: '/users', permission: 'users.view', order: 900 }];
