import { lazy, Suspense } from 'react';
import { Navigate, Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconUserCircle, IconHandStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import type { List } from '@/api/types';
import { PageHeader } from '@/components/PageHeader';
import { PendingExcuses } from '@/features/portal/components/PendingExcuses';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/components/serverErrors';
import { useSession } from '@/auth/session';
import { useScreenSource } from '@/features/violation-source/hooks';
import { SourceControl } from '@/features/violation-source/SourceControl';
import { withSource } from '@/features/violation-source/source';
import { useAcademicYear } from '@/features/warning-letters/hooks';
import { navItems } from '@/registry';
import { useDashboard } from '../hooks';
import { hasFigures, landingPath, needsClasses, type HomeroomClass } from '../landing';

// The figures and their charts load with the dashboard only (recharts stays out of the
// sign-in page's bundle).
const DashboardView = lazy(() => import('../components/DashboardView'));

/**
 * The dashboard of the signed-in user, shaped by the server: the sections they may see, a
 * homeroom teacher's class only. Someone whose role opens none of the summarised lists is
 * sent to where their work starts (see landingPath), or sees a welcome with their profile.
 */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { t: tc } = useTranslation();
  const { me, permissions, can } = useSession();
  const role = me?.user.role ?? 'other';
  const figures = hasFigures(permissions);
  // Sumber: the URL's, else the user's own (behaviour for a counselor, attendance for a homeroom teacher).
  const [sp, setSp] = useSearchParams();
  const { source, remember } = useScreenSource(sp.get('source'));
  const dashboard = useDashboard(figures, source);
  // Points and letters count per academic year: the header names the one running.
  const year = useAcademicYear(figures);
  const wantClasses = !figures && needsClasses(role, permissions);
  const classes = useQuery({
    queryKey: ['dashboard', 'homeroom-classes'],
    queryFn: ({ signal }) => api.get<List<HomeroomClass>>('/classes', undefined, signal),
    enabled: wantClasses,
    // No class list is no reason for an error page: the students list is the fallback.
    throwOnError: false,
    retry: false,
    staleTime: 60_000,
  });

  if (!me || (wantClasses && classes.isPending)) return <PageLoader />;
  if (figures) {
    return (
      <>
        <PageHeader
          title={t('title')}
          description={t('welcome', { name: me.user.name })}
          actions={
            year.data && (
              <Badge variant="light" size="lg" data-testid="dashboard-year">
                {t('year', { year: year.data.label })}
              </Badge>
            )
          }
        />
        <PendingExcuses classId={0} />
        {can('violations.view') && (
          <Group mb="sm">
            <SourceControl
              value={source}
              onChange={(s) => {
                remember(s);
                setSp(withSource(sp, s), { replace: true });
              }}
            />
          </Group>
        )}
        {dashboard.isError && <Alert color="red">{errorMessage(dashboard.error, tc)}</Alert>}
        {dashboard.isPending ? (
          <PageLoader />
        ) : (
          dashboard.data && (
            <Suspense fallback={<PageLoader />}>
              <DashboardView d={dashboard.data} role={role} />
            </Suspense>
          )
        )}
      </>
    );
  }
  const target = landingPath({ role, userId: me.user.id, permissions, items: navItems, classes: classes.data?.data });
  if (target) return <Navigate to={target} replace />;

  return (
    <>
      <PageHeader title={t('title')} description={t('welcome', { name: me.user.name })} />
      <Card withBorder padding="lg" maw={560} data-testid="dashboard-nothing">
        <Group gap="sm" mb="xs" wrap="nowrap">
          <ThemeIcon variant="light" size="lg" aria-hidden>
            <IconHandStop size={20} />
          </ThemeIcon>
          <Title order={2} size="h4">
            {t('nothing.title')}
          </Title>
        </Group>
        <Text size="sm" mb="md">
          {t('nothing.body')}
        </Text>
        <Button component={Link} to="/profile" variant="light" leftSection={<IconUserCircle size={18} aria-hidden />}>
          {t('nothing.profile')}
        </Button>
      </Card>
    </>
  );
}
