import { lazy } from 'react';
import { AUTHENTICATED, type FeatureRoute } from '@/app/feature';

const ProfilePage = lazy(() => import('./pages/ProfilePage'));

/** Reached from the user menu, so no nav item. */
export const routes: FeatureRoute[] = [{ path: '/profile', element: <ProfilePage />, permission: AUTHENTICATED }];
