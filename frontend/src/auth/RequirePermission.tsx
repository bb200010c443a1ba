import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RoutePermission } from '@/app/feature';
import { ForbiddenPage } from '@/components/errors';
import { useSession } from './session';

/** Renders children only for users holding `permission`; others get the 403 page. */
export function RequirePermission({ permission, children }: { permission: RoutePermission; children: ReactNode }) {
  const { t } = useTranslation();
  const { can } = useSession();
  if (!can(permission)) return <ForbiddenPage message={t('errors.forbidden.missing', { permission })} />;
  return <>{children}</>;
}
