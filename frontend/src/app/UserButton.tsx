import type { ComponentPropsWithRef } from 'react';
import { Avatar, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session';
import { initials } from '@/lib/names';

/**
 * The user menu's button: the same markup before the menu is downloaded (a stand-in) and as
 * the menu's target after. Props (ref, aria-*, onClick) come from Menu.Target or the stand-in.
 */
export function UserButton(props: ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  const { me } = useSession();
  if (!me) return null;
  // The name on the button is its label (axe: label-content-name-mismatch); the words
  // "user menu" are added for screen readers, and on phones, where the name is hidden.
  return (
    <UnstyledButton data-testid="user-menu" {...props}>
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
  );
}
