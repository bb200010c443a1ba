import { useTranslation } from 'react-i18next';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBuildingCommunity, IconLock } from '@tabler/icons-react';
import type { Permission } from '../api';
import { permissionAllows, permissionLabel } from '../matrix';

/**
 * A permission as people read it: its label, a "sensitive" mark with what it allows, and a
 * note when it is school-wide. Never the permission's code.
 */
export function PermissionLabel({ permission }: { permission: Permission }) {
  const { t, i18n } = useTranslation('roles');
  const lang = i18n.resolvedLanguage ?? 'id';
  const allows = permissionAllows(permission, lang);
  return (
    <Stack gap={4}>
      <Group gap={6} wrap="wrap">
        <Text size="sm" fw={500}>
          {permissionLabel(permission, lang)}
        </Text>
        {permission.sensitive && (
          <Badge size="sm" color="red" variant="light" leftSection={<IconAlertTriangle size={12} aria-hidden />} data-testid={`sensitive-${permission.name}`}>
            {t('sensitive')}
          </Badge>
        )}
        {permission.admin_only && (
          <Badge size="sm" color="gray" variant="light" leftSection={<IconLock size={12} aria-hidden />} data-testid={`admin-only-${permission.name}`}>
            {t('adminOnly')}
          </Badge>
        )}
      </Group>
      {permission.admin_only && (
        <Text size="xs" c="dimmed">
          {t('adminOnlyNote')}
        </Text>
      )}
      {allows && (
        <Text size="xs" c="dimmed">
          {allows}
        </Text>
      )}
      {permission.school_wide && (
        <Group gap={4} wrap="nowrap" align="flex-start" data-testid={`school-wide-${permission.name}`}>
          <IconBuildingCommunity size={14} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="xs" c="dimmed">
            {t('schoolWide')}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
