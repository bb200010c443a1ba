import { Menu } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { authApi } from '@/auth/api';
import { useSession } from '@/auth/session';
import { UserButton } from './UserButton';
import '@/app/pageStyles';

/** The user menu: profile and sign-out. Loaded after the first screen (Shell.tsx). */
export default function UserMenu({ defaultOpened = false }: { defaultOpened?: boolean }) {
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
    <Menu position="bottom-end" shadow="md" width={220} defaultOpened={defaultOpened}>
      <Menu.Target>
        <UserButton />
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

