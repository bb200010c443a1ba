import { lazy } from 'react';
import { IconUsersGroup } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const StudentsPage = lazy(() => import('./pages/StudentsPage'));
const StudentPage = lazy(() => import('./pages/StudentPage'));

export const routes: FeatureRoute[] = [
  { path: '/students', element: <StudentsPage />, permission: 'students.view' },
  { path: '/students/:id', element: <StudentPage />, permission: 'students.view', namespaces: ['achievements', 'attendance-recap', 'face', 'portal', 'warning-letters'] },
];

export const nav: NavItem[] = [{ labelKey: 'students:nav', icon: IconUsersGroup, path: '/students', permission: 'students.view', order: 20 }];
