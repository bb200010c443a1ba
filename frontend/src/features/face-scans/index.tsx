import { lazy } from 'react';
import { IconFaceId } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const FaceScansPage = lazy(() => import('./pages/FaceScansPage'));

// The queue of uncertain scans and the scan log; the gate's settings are a Settings tab.
export const routes: FeatureRoute[] = [{ path: paths.review, element: <FaceScansPage />, permission: 'face.review' }];

// After attendance (90) and its recap (95): the gate feeds the attendance of lesson hour 1.
export const nav: NavItem[] = [{ labelKey: 'face-scans:nav', icon: IconFaceId, path: paths.review, permission: 'face.review', order: 97 }];
