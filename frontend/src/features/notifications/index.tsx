import { lazy } from 'react';
import { AUTHENTICATED, type FeatureRoute } from '@/app/feature';
import { NOTIFICATIONS_PATH } from '@/app/unread';

const NotificationsPage = lazy(() => import('./pages/NotificationsPage'));

/** No nav item: the bell in the header is the way in, on every screen. */
export const routes: FeatureRoute[] = [{ path: NOTIFICATIONS_PATH, element: <NotificationsPage />, permission: AUTHENTICATED }];
