// The family portal as an app of its own (src/portal-main.tsx): its query client, theme,
// notifications and a router that knows only /ortu/*. The staff app's sign-in, shell and
// 401 handling are not here: the portal answers its own 401s (PortalApp's RequireGuardian).
import { useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { createQueryClient } from '@/app/queryClient';
import { cssVariablesResolver, theme } from '@/app/theme';
import { RouteError } from '@/components/errors';
import PortalApp from './PortalApp';
import { PORTAL_BASE } from './paths';

function createPortalRouter() {
  return createBrowserRouter([
    { path: `${PORTAL_BASE}/*`, element: <PortalApp />, errorElement: <RouteError /> },
    // ortu.html is served only under /ortu; anything else the router meets goes home.
    { path: '*', element: <Navigate to={`${PORTAL_BASE}/`} replace /> },
  ]);
}

export function PortalRoot() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createPortalRouter);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position="top-center" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
