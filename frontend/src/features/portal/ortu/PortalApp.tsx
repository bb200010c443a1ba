// The family portal's routes (/ortu/*), rendered by its own entry (ortu.html, PortalRoot.tsx).
// The sign-in page is in the entry; the signed-in pages and registration are lazy, each with the
// portal's page sheets (./pageStyles).
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { AppShell, Container, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { PageLoader } from '@/components/PageLoader';
import i18n from '@/i18n';
import { portalApi, portalViewsApi } from '../api';
import en from '../i18n/en.json';
import id from '../i18n/id.json';
import { installPortal } from './install';
import { PORTAL_BASE, portalKeys } from './paths';
import { SignInPage } from './SignInPage';

// A signed-in page's code is asked for beside the question who is signed in (RequireGuardian's
// `page`), not after its answer, and the home's lists too (`data`: HomePage's queries, same keys):
// on a slow phone connection each is a round trip less. Signed out, they answer 401 unseen.
const loadHome = () => import('./HomePage');
const loadChild = () => import('./ChildPage');
const loadAccount = () => import('./AccountPage');
const HomePage = lazy(() => loadHome().then((m) => ({ default: m.HomePage })));
const ChildPage = lazy(() => loadChild().then((m) => ({ default: m.ChildPage })));
const AccountPage = lazy(() => loadAccount().then((m) => ({ default: m.AccountPage })));
const RegisterPage = lazy(() => import('./RegisterPage').then((m) => ({ default: m.RegisterPage })));

function prefetchHome(qc: QueryClient) {
  void qc.prefetchQuery({ queryKey: portalKeys.children, queryFn: ({ signal }) => portalViewsApi.children(signal) });
  void qc.prefetchQuery({ queryKey: portalKeys.messages, queryFn: ({ signal }) => portalViewsApi.messages(signal) });
}

i18n.addResourceBundle('id', 'portal', id, true, false);
i18n.addResourceBundle('en', 'portal', en, true, false);
installPortal();

/** The signed-in guardian, or the portal's sign-in page. `page` and `data` start the page's downloads. */
function RequireGuardian({ page, data, children }: { page: () => Promise<unknown>; data?: (qc: QueryClient) => void; children: ReactNode }) {
  const location = useLocation();
  const qc = useQueryClient();
  const me = useQuery({ queryKey: portalKeys.me, queryFn: ({ signal }) => portalApi.me(signal), retry: false, staleTime: 60_000 });
  // After useQuery's own effect, so the question who is signed in leaves first: the browser
  // opens six connections to a plain-HTTP server, and the answer decides what shows.
  useEffect(() => {
    void page().catch(() => undefined);
    data?.(qc);
  }, [page, data, qc]);
  if (me.isPending) return <PageLoader fullScreen />;
  if (me.isError && isApiError(me.error) && me.error.status === 401) {
    return <Navigate to={`${PORTAL_BASE}/masuk`} replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}

function Frame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('portal');
  return (
    <AppShell header={{ height: 52 }} padding="sm">
      <AppShell.Header>
        <Container size={480} h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Text fw={700} component="a" href={`${PORTAL_BASE}/`} style={{ textDecoration: 'none', color: 'inherit' }}>
              {t('ortu.appName')}
            </Text>
            <LanguageSwitch />
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main>
        <Container size={480} px={0}>
          <Suspense fallback={<PageLoader />}>{children}</Suspense>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

/** /ortu/* : sign-in, the guardian's children, a child, the account. */
export default function PortalApp() {
  return (
    <Frame>
      <Routes>
        <Route path="masuk" element={<SignInPage />} />
        <Route path="daftar" element={<RegisterPage />} />
        <Route path="" element={<RequireGuardian page={loadHome} data={prefetchHome}><HomePage /></RequireGuardian>} />
        <Route path="anak/:id" element={<RequireGuardian page={loadChild}><ChildPage /></RequireGuardian>} />
        <Route path="akun" element={<RequireGuardian page={loadAccount}><AccountPage /></RequireGuardian>} />
        <Route path="*" element={<Navigate to={`${PORTAL_BASE}/`} replace />} />
      </Routes>
    </Frame>
  );
}
