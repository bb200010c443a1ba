import { lazy } from 'react';
import { IconFileAnalytics } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';

const RecapReportPage = lazy(() => import('./pages/RecapReportPage'));

export const paths = { recap: '/laporan' } as const;

export const routes: FeatureRoute[] = [{ path: paths.recap, element: <RecapReportPage />, permission: 'reports.view', namespaces: ['cases', 'violations'] }];

// After the warning letters and attendance recaps: reading, not daily entry.
export const nav: NavItem[] = [{ labelKey: 'reports:nav', icon: IconFileAnalytics, path: paths.recap, permission: 'reports.view', order: 700 }];
