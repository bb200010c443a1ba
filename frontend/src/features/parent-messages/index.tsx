import { lazy } from 'react';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import type { FeatureRoute, NavItem } from '@/app/feature';
import { paths } from './paths';

const ParentMessagesPage = lazy(() => import('./pages/ParentMessagesPage'));

export const routes: FeatureRoute[] = [{ path: paths.log, element: <ParentMessagesPage />, permission: 'parent_messages.view' }];

export const nav: NavItem[] = [
  { labelKey: 'parent-messages:nav', icon: IconBrandWhatsapp, path: paths.log, permission: 'parent_messages.view', order: 320 },
];
