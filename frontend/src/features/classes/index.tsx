import { lazy } from 'react';
import { IconSchool } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const ClassesPage = lazy(() => import('./pages/ClassesPage'));

export const routes: FeatureRoute[] = [{ path: '/classes', element: <ClassesPage />, permission: 'students.view' }];

export const nav: NavItem[] = [{ labelKey: 'classes:nav', icon: IconSchool, path: '/classes', permission: 'students.view', order: 30 }];
