import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RoutePermission } from '@/app/feature';
import { ForbiddenPage } from '@/components/errors';
import { navLabelKey } from '@/i18n';
import { navItems } from '@/registry';
import { useSession } from './session';

/**
 * Renders children only for users holding `permission`; others get the 403 page, which names
 * the page in the user's words (its menu label), never the permission's code.
 */
export function RequirePermission({ permission, children }: { permission: RoutePermission; children: ReactNode }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const { pathname } = useLocation();
  if (can(permission)) return <>{children}</>;
  const item = navItems.find((i) => pathname === i.path || pathname.startsWith(`${i.path}/`));
  const message = item ? t('errors.forbidden.missingPage', { page: t(navLabelKey(item.labelKey)) }) : t('errors.forbidden.missing');
  return <ForbiddenPage message={message} />;
}
