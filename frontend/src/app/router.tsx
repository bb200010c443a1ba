import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RequireAuth } from '@/auth/RequireAuth';
import { RequirePermission } from '@/auth/RequirePermission';
import { SignInPage } from '@/auth/SignInPage';
import { useSession } from '@/auth/session';
import { NotFoundPage, RouteError } from '@/components/errors';
import { featureRoutes, navItems } from '@/registry';
import { homePath } from './nav';
import { Shell } from './Shell';

function Home() {
  const { permissions } = useSession();
  return <Navigate to={homePath(navItems, permissions)} replace />;
}

export const routes: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
  {
    element: <RequireAuth />,
    errorElement: <RouteError />,
    children: [
      {
        element: <Shell />,
        children: [
          {
            errorElement: <RouteError />,
            children: [
              { index: true, element: <Home /> },
              ...featureRoutes.map((r) => ({
                path: r.path,
                element: <RequirePermission permission={r.permission}>{r.element}</RequirePermission>,
              })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
