import { lazy } from 'react';
import { IconClipboardCheck } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const AttendancePage = lazy(() => import('./pages/AttendancePage'));

// The class and date are in the path, so moving to another class or day passes the
// unsaved-changes guard and a link opens exactly that form.
export const routes: FeatureRoute[] = [
  { path: paths.form, element: <AttendancePage />, permission: 'attendance.view', namespaces: ['portal'] },
  { path: '/absensi/:classId/:date', element: <AttendancePage />, permission: 'attendance.view', namespaces: ['portal'] },
];

export const nav: NavItem[] = [{ labelKey: 'attendance:nav', icon: IconClipboardCheck, path: paths.form, permission: 'attendance.view', order: 90 }];
