import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RequireAuth } from '@/auth/RequireAuth';
import { RequirePermission } from '@/auth/RequirePermission';
import { SignInPage } from '@/auth/SignInPage';
import { useSession } from '@/auth/session';
import { NotFoundPage, RouteError } from '@/components/errors';
import { PageLoader } from '@/components/PageLoader';
import { loadNavCatalogue, preloadNamespaces } from '@/i18n';
import { featureRoutes, navItems } from '@/registry';
import { homePath } from './nav';
import { preloaded } from './preloaded';
import { Shell as ShellView } from './Shell';
import './shellStyles';

// The app shell (navigation, menus, the notification bell, the shell's Mantine styles) is in
// the first download with the sign-in page: on a school's plain-HTTP server a phone on slow 4G
// spent most of a second fetching it as ~30 small chunks over six connections, while on
// Preact (vite.config.ts) the whole first download is smaller than the sign-in page alone was.
// The navigation's labels still come as their own file, in the signed-in person's language;
// once they are here the shell renders without suspending (app/preloaded.tsx).
const { Component: Shell, preload: loadShell } = preloaded<object>(() => loadNavCatalogue().then(() => ({ default: ShellView })));

// The gate kiosk (/kiosk) runs outside the shell and without sign-in, like the sign-in page,
// but in its own chunk: the face engine and the kiosk's styles never weigh on the first download.
export const KIOSK_PATH = '/kiosk';
const KioskPage = lazy(() => import('@/features/face/kiosk/KioskPage'));

// The anonymous report pages (/lapor, /lapor/lacak) run outside the shell and without
// sign-in, in their own chunk, phone first.
const ReportPage = lazy(() => import('@/features/cases/public/ReportPage'));
const TrackPage = lazy(() => import('@/features/cases/public/TrackPage'));
const LAPOR_PREFIX = '/lapor';
// The family portal (/ortu) is an app of its own (ortu.html, src/portal-main.tsx) that the
// server serves for /ortu and /ortu/*: guardians never download the staff app, and staff
// never the portal. A link inside the staff app that reaches /ortu loads that page.
export const PORTAL_PATH = '/ortu';

function PortalRedirect() {
  const { pathname, search } = window.location;
  // Once only: where /ortu is answered with this app (the desktop app has no portal), a
  // second visit within seconds shows "not found" rather than reloading for ever.
  const key = 'tatib.portalRedirect';
  const last = Number(sessionStorage.getItem(key) ?? 0);
  if (Date.now() - last < 10_000) return <NotFoundPage />;
  sessionStorage.setItem(key, String(Date.now()));
  window.location.replace(pathname + search);
  return <PageLoader fullScreen />;
}

function LazyShell() {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Shell />
    </Suspense>
  );
}

/**
 * Mounts a page only once the other features' catalogues it declares are here (useTranslation
 * starts their download beside the page's code and suspends until then). A text of another
 * feature that appeared later (a student's SP standing once one is picked) would suspend the
 * page mid-use, and on Preact the route's boundary then mounts it again: the counselor's form
 * was emptied.
 */
function WithCatalogues({ namespaces, children }: { namespaces: readonly string[] | undefined; children: ReactNode }) {
  if (!namespaces || namespaces.length === 0) return children;
  return <CataloguesReady namespaces={namespaces}>{children}</CataloguesReady>;
}

function CataloguesReady({ namespaces, children }: { namespaces: readonly string[]; children: ReactNode }) {
  useTranslation([...namespaces]);
  return children;
}

function Home() {
  const { permissions } = useSession();
  return <Navigate to={homePath(navItems, permissions)} replace />;
}

export const routes: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
  {
    path: KIOSK_PATH,
    element: (
      <Suspense fallback={<PageLoader fullScreen />}>
        <KioskPage />
      </Suspense>
    ),
    errorElement: <RouteError />,
  },
  ...[
    { path: LAPOR_PREFIX, element: <ReportPage /> },
    { path: `${LAPOR_PREFIX}/lacak`, element: <TrackPage /> },
  ].map((r) => ({
    path: r.path,
    element: <Suspense fallback={<PageLoader fullScreen />}>{r.element}</Suspense>,
    errorElement: <RouteError />,
  })),
  {
    path: `${PORTAL_PATH}/*`,
    element: <PortalRedirect />,
    errorElement: <RouteError />,
  },
  {
    element: <RequireAuth />,
    errorElement: <RouteError />,
    children: [
      {
        element: <LazyShell />,
        children: [
          {
            errorElement: <RouteError />,
            children: [
              { index: true, element: <Home /> },
              ...featureRoutes.map((r) => ({
                path: r.path,
                element: (
                  <WithCatalogues namespaces={r.namespaces}>
                    <RequirePermission permission={r.permission}>{r.element}</RequirePermission>
                  </WithCatalogues>
                ),
              })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * At start-up, the page the address names (for "/", the dashboard, where most roles land):
 * its code and catalogues download beside the shell and /auth/me instead of after them.
 */
function preloadPage(pathname: string) {
  const path = pathname === '/' ? '/dashboard' : pathname;
  const route = featureRoutes.find((r) => r.path === path);
  if (!route) return;
  route.preload?.().catch(() => undefined); // the lazy element tries again and shows its error
  if (route.namespaces) preloadNamespaces(route.namespaces);
}

export function createRouter() {
  // Anywhere but the sign-in page and the kiosk the shell is needed as soon as /auth/me
  // answers: fetch it alongside that call instead of after it.
  if (
    typeof window !== 'undefined' &&
    window.location.pathname !== '/sign-in' &&
    window.location.pathname !== KIOSK_PATH &&
    !window.location.pathname.startsWith(PORTAL_PATH) &&
    !window.location.pathname.startsWith(LAPOR_PREFIX)
  ) {
    void loadShell();
    preloadPage(window.location.pathname);
  }
  return createBrowserRouter(routes);
}
