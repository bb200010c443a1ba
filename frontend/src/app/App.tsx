import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { setUnauthorizedHandler } from '@/api/client';
import { signInPath } from '@/auth/RequireAuth';
import { createQueryClient } from './queryClient';
import { createRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

export function App() {
  const { i18n } = useTranslation();
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);

  // A 401 from any call means the session is gone: forget cached data, go to sign-in.
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const { pathname, search } = router.state.location;
      if (pathname === '/sign-in') return;
      queryClient.clear();
      void router.navigate(signInPath(pathname + search), { replace: true });
    });
    return () => setUnauthorizedHandler(null);
  }, [router, queryClient]);

  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <DatesProvider settings={{ locale: i18n.resolvedLanguage ?? 'id', firstDayOfWeek: 1 }}>
        <Notifications position="top-right" />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}
