import { Suspense, useEffect, useRef } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import {
  Alert,
  AppShell,
  Avatar,
  Burger,
  Button,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconPlugConnectedX, IconSchool, IconUserCircle } from '@tabler/icons-react';
import { authApi } from '@/auth/api';
import { refreshMe, useSession } from '@/auth/session';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { NotificationBell } from '@/components/NotificationBell';
import { PageErrorBoundary } from '@/components/errors';
import { PageLoader } from '@/components/PageLoader';
import { TodayInJakarta } from '@/components/TodayInJakarta';
import { initials } from '@/lib/names';
import { navItems } from '@/registry';
import { useServerReachable } from './connectivity';
import { RealtimeProvider } from './realtimeProvider';
import { visibleNav } from './nav';

function UserMenu() {
  const { t } = useTranslation();
  const { me } = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const signOut = async () => {
    try {
      await authApi.logout();
    } finally {
      qc.clear();
      navigate('/sign-in', { replace: true });
    }
  };
  if (!me) return null;
  return (
    <Menu position="bottom-end" shadow="md" width={220}>
      <Menu.Target>
        {/* The name on the button is its label (axe: label-content-name-mismatch); the
            words "user menu" are added for screen readers, and on phones, where the name is hidden. */}
        <UnstyledButton data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar color="blue" radius="xl" size={34} aria-hidden>
              {initials(me.user.name || me.user.username)}
            </Avatar>
            <Stack gap={0} visibleFrom="sm">
              <Text size="sm" fw={600} lh={1.2}>
                {me.user.name}
              </Text>
              <Text size="xs" c="dimmed" lh={1.2}>
                {t(`role.${me.user.role}`)}
              </Text>
            </Stack>
            <VisuallyHidden>{t('shell.userMenu')}</VisuallyHidden>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{me.user.username}</Menu.Label>
        <Menu.Item leftSection={<IconUserCircle size={16} />} onClick={() => navigate('/profile')}>
          {t('shell.profile')}
        </Menu.Item>
        {/* A shade makes Mantine take the theme's readable text colour (plain "red" is red.6, 3.3:1). */}
        <Menu.Item color="red.8" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          {t('shell.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
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
  const area = current ? t(current.labelKey) : '';
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
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t('shell.navLabel')} data-testid="navbar">
        <AppShell.Section hiddenFrom="md" pb="sm">
          <TodayInJakarta />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {items.map((item) => (
              <NavLink
                key={item.path}
                component={RouterNavLink}
                to={item.path}
                // A path another item extends (/absensi under /absensi/rekap) is current only exactly.
                end={items.some((o) => o !== item && o.path.startsWith(`${item.path}/`))}
                label={t(item.labelKey)}
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
          </Suspense>
        </PageErrorBoundary>
      </AppShell.Main>
    </AppShell>
  );
}
