import { lazy } from 'react';
import { IconReportAnalytics } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const RecapPage = lazy(() => import('./pages/RecapPage'));

export const paths = { recap: '/absensi/rekap' } as const;

export const routes: FeatureRoute[] = [{ path: paths.recap, element: <RecapPage />, permission: 'attendance.view' }];

// Right after the class form (order 90).
export const nav: NavItem[] = [{ labelKey: 'attendance-recap:nav', icon: IconReportAnalytics, path: paths.recap, permission: 'attendance.view', order: 95 }];
