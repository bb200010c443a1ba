import { useTranslation } from 'react-i18next';
import { Alert, Card, Divider, Select, Stack, Switch, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { PermissionName, Role } from '@/api/types';
import type { RoleInfo } from '../api';
import { cellLocked, isDirty, permissionLabel, type Draft, type PermissionGroup } from '../matrix';
import { PermissionLabel } from './PermissionLabel';

interface Props {
  groups: PermissionGroup[];
  roles: RoleInfo[];
  role: RoleInfo;
  draft: Draft;
  saving: string | null;
  roleName: (r: RoleInfo) => string;
  granted: (r: RoleInfo, p: PermissionName) => boolean;
  onRole: (r: Role) => void;
  onToggle: (r: RoleInfo, p: PermissionName, on: boolean) => void;
}

/** Phone: one role at a time, chosen above, its permissions as a list of switches. */
export function RoleSwitchList({ groups, roles, role, draft, saving, roleName, granted, onRole, onToggle }: Props) {
  const { t, i18n } = useTranslation('roles');
  const lang = i18n.resolvedLanguage ?? 'id';
  return (
    <Stack gap="md" data-testid="roles-phone">
      <Select
        label={t('role')}
        data={roles.map((r) => ({ value: r.role, label: isDirty(r, draft) ? t('roleChanged', { role: roleName(r) }) : roleName(r) }))}
        value={role.role}
        onChange={(v) => v && onRole(v as Role)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="roles-phone-select"
      />
      {role.locked && (
        <Alert variant="light" icon={<IconLock />}>
          {t('adminLocked')}
        </Alert>
      )}
      {groups.map((g) => (
        <Card key={g.group} withBorder padding="sm">
          <Text size="xs" fw={700} tt="uppercase" mb="xs">
            {t(`groups.${g.group}`, { defaultValue: g.group })}
          </Text>
          <Stack gap="xs">
            {g.permissions.map((p, i) => (
              <Stack key={p.name} gap="xs">
                {i > 0 && <Divider />}
                <Switch
                  checked={granted(role, p.name)}
                  disabled={cellLocked(role, p) || saving !== null}
                  onChange={(e) => onToggle(role, p.name, e.currentTarget.checked)}
                  label={<PermissionLabel permission={p} />}
                  aria-label={t('cellLabel', { permission: permissionLabel(p, lang), role: roleName(role) })}
                  labelPosition="left"
                  styles={{ body: { justifyContent: 'space-between' }, labelWrapper: { flex: 1 } }}
                  data-testid={`perm-${role.role}-${p.name}`}
                />
              </Stack>
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
