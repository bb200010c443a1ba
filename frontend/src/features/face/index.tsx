import { lazy } from 'react';
import type { FeatureRoute } from '@/app/feature';
import { paths } from './paths';

// The enrol page loads the face engine (its own chunk) only when opened. The kiosk (/kiosk)
// is not here: it runs outside the app shell, without sign-in (app/router.tsx). The face
// review page and its nav item belong to features/face-scans.
const EnrolPage = lazy(() => import('./pages/EnrolPage'));

export const routes: FeatureRoute[] = [{ path: paths.enrol, element: <EnrolPage />, permission: 'face.enrol' }];
