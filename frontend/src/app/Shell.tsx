import { lazy, Suspense, useEffect, useRef } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import {
  Alert,
  AppShell,
  Burger,
  Button,
  Group,
  NavLink,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { IconPlugConnectedX, IconSchool } from '@tabler/icons-react';
import { refreshMe, useSession } from '@/auth/session';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { NotificationBell } from '@/components/NotificationBell';
import { PageErrorBoundary } from '@/components/errors';
import { PageLoader } from '@/components/PageLoader';
import { TodayInJakarta } from '@/components/TodayInJakarta';
import { navLabelKey, preloadAllNamespaces } from '@/i18n';
import { navItems } from '@/registry';
import { useServerReachable } from './connectivity';
import { useDeferred, whenIdle } from './deferred';
import { UserButton } from './UserButton';
import { RealtimeProvider } from './realtimeProvider';
import { visibleNav } from './nav';

// The user menu's dropdown (Mantine's Menu and its floating positioning) is not part of
// the first screen: a button that looks the same stands in until the browser is idle or the
// button is used, whichever comes first (app/deferred.tsx).
const UserMenu = lazy(() => import('./UserMenu'));

let firstPageShown = false;
/**
 * Mounted beside the page, inside its Suspense boundary: its effect runs once a page has
 * really shown (not its loader), and then, when the browser is idle, the other features'
 * catalogues follow.
 */
function AfterFirstPage() {
  useEffect(() => {
    if (firstPageShown) return;
    firstPageShown = true;
    whenIdle(preloadAllNamespaces); // once per visit, whatever page comes next
  }, []);
  return null;
}

function UserMenuSlot() {
  const { me } = useSession();
  const { wanted, openOnLoad, want } = useDeferred();
  if (!me) return null;
  const placeholder = <UserButton onClick={() => want(true)} />;
  if (!wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <UserMenu defaultOpened={openOnLoad} />
    </Suspense>
  );
}

function UnreachableBanner() {
  const { t } = useTranslation();
  const reachable = useServerReachable();
  const qc = useQueryClient();
  if (reachable) return null;
  return (
    <Alert color="red" icon={<IconPlugConnectedX />} mb="md" title={t('errors.unreachable.title')} role="alert" data-testid="unreachable-banner">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('errors.unreachable.message')}</Text>
        <Button size="xs" variant="white" color="red" onClick={() => void qc.refetchQueries({ type: 'active' })}>
          {t('actions.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** The signed-in frame: header, permission-filtered navigation, page area. */
export function Shell() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { permissions } = useSession();
  const location = useLocation();
  const qc = useQueryClient();
  const items = visibleNav(navItems, permissions);

  // Permissions can change while someone works (role access rights): refetch them on
  // every navigation so the next page already obeys them. The first render just fetched.
  const first = useRef(true);
  useEffect(() => {
    close();
    if (first.current) {
      first.current = false;
      return;
    }
    void refreshMe(qc);
  }, [location.pathname, qc, close]);

  // The window title names the current area, so tabs and the desktop window say where you are.
  // The longest matching path wins: on /absensi/rekap that is "Rekap Absensi", not "Absensi".
  const current = items
    .filter((i) => location.pathname === i.path || location.pathname.startsWith(`${i.path}/`))
    .reduce<(typeof items)[number] | undefined>((best, i) => (!best || i.path.length > best.path.length ? i : best), undefined);
  const area = current ? t(navLabelKey(current.labelKey)) : '';
  useEffect(() => {
    document.title = area ? `${area} · ${t('app.name')}` : t('app.name');
  }, [area, t]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <RealtimeProvider />
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? t('shell.closeNav') : t('shell.openNav')}
              data-testid="burger"
            />
            <Group gap={8} wrap="nowrap">
              <ThemeIcon radius="md" size={32} aria-hidden>
                <IconSchool size={20} />
              </ThemeIcon>
              <Text fw={700} size="lg">
                {t('app.name')}
              </Text>
            </Group>
            <TodayInJakarta visibleFrom="md" ml="md" />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <NotificationBell />
            <UserMenuSlot />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t('shell.navLabel')} data-testid="navbar">
        <AppShell.Section hiddenFrom="md" pb="sm">
          <TodayInJakarta />
        </AppShell.Section>
        {/* A native scrolling section: Mantine's ScrollArea brings floating-ui (its ref merging)
            into the first screen. */}
        <AppShell.Section grow style={{ overflowY: 'auto', overscrollBehavior: 'contain' }}>
          <Stack gap={2}>
            {items.map((item) => (
              <NavLink
                key={item.path}
                component={RouterNavLink}
                to={item.path}
                // A path another item extends (/absensi under /absensi/rekap) is current only exactly.
                end={items.some((o) => o !== item && o.path.startsWith(`${item.path}/`))}
                label={t(navLabelKey(item.labelKey))}
                leftSection={<item.icon size={20} stroke={1.6} />}
                active={item === current}
                onClick={close}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              />
            ))}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <UnreachableBanner />
        <PageErrorBoundary key={location.pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
            <AfterFirstPage />
          </Suspense>
        </PageErrorBoundary>
      </AppShell.Main>
    </AppShell>
  );
}
