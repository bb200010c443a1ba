import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Button, Card, Center, Checkbox, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconDeviceFloppy, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { PageHeader } from '@/components/PageHeader';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import type { RoleInfo } from '../api';
import { usePermissionCatalogue, useRoles, useSaveRolePermissions } from '../hooks';
import { groupPermissions, isDirty, permissionLabel, toggle, type Draft } from '../matrix';

export default function RolesPage() {
  const { t, i18n } = useTranslation('roles');
  const { t: tc } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'id';
  const catalogue = usePermissionCatalogue();
  const roles = useRoles();
  const save = useSaveRolePermissions();
  const [draft, setDraft] = useState<Draft>({});
  const [saving, setSaving] = useState<string | null>(null);

  if (catalogue.isPending || roles.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={tc('loading')} />
      </Center>
    );
  }
  if (!catalogue.data || !roles.data) return null;

  const groups = groupPermissions(catalogue.data.data);
  const roleList = roles.data.data;
  const roleName = (r: RoleInfo) => tc(`role.${r.role}`, { defaultValue: r.label });

  const granted = (r: RoleInfo, perm: string) => r.locked || (draft[r.role] ?? r.permissions).includes(perm);

  const saveRole = (r: RoleInfo) => {
    const permissions = draft[r.role];
    if (!permissions) return;
    setSaving(r.role);
    save.mutate(
      { role: r.role, permissions },
      {
        onSuccess: () => {
          setDraft(({ [r.role]: _saved, ...rest }) => rest);
          notifySuccess(t('saved', { role: roleName(r) }));
        },
        onError: (err) => notifyError(err, tc),
        onSettled: () => setSaving(null),
      },
    );
  };

  const undo = (r: RoleInfo) => setDraft(({ [r.role]: _dropped, ...rest }) => rest);

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Alert variant="light" icon={<IconInfoCircle />} mb="md">
        {t('hint')}
      </Alert>
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={960}>
          <Table withColumnBorders verticalSpacing="xs" stickyHeader aria-label={t('title')} data-testid="roles-matrix">
            <Table.Thead>
              <Table.Tr>
                <Table.Th miw={220}>{t('permission')}</Table.Th>
                {roleList.map((r) => {
                  const dirty = isDirty(r, draft);
                  return (
                    <Table.Th key={r.role} ta="center" miw={92} data-testid={`role-col-${r.role}`}>
                      <Stack gap={4} align="center">
                        <Group gap={4} justify="center" wrap="nowrap">
                          {r.locked && (
                            <Tooltip label={t('adminLocked')}>
                              <IconLock size={14} aria-label={t('adminLocked')} />
                            </Tooltip>
                          )}
                          <Text size="sm" fw={600}>
                            {roleName(r)}
                          </Text>
                        </Group>
                        {dirty && (
                          <Group gap={4} wrap="nowrap">
                            <Button
                              size="compact-xs"
                              leftSection={<IconDeviceFloppy size={14} />}
                              loading={saving === r.role}
                              onClick={() => saveRole(r)}
                              aria-label={t('saveRole', { role: roleName(r) })}
                            >
                              {tc('actions.save')}
                            </Button>
                            <ActionIcon size="sm" variant="subtle" color="gray" onClick={() => undo(r)} aria-label={t('undoRole', { role: roleName(r) })}>
                              <IconArrowBackUp size={14} />
                            </ActionIcon>
                          </Group>
                        )}
                      </Stack>
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.map((g) => (
                <Fragment key={g.group}>
                  <Table.Tr bg="gray.1">
                    <Table.Td colSpan={roleList.length + 1}>
                      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
                        {t(`groups.${g.group}`, { defaultValue: g.group })}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                  {g.permissions.map((p) => {
                    const label = permissionLabel(p, lang);
                    return (
                      <Table.Tr key={p.name}>
                        <Table.Td>
                          <Text size="sm">{label}</Text>
                          <Text size="xs" c="dimmed" ff="monospace">
                            {p.name}
                          </Text>
                        </Table.Td>
                        {roleList.map((r) => (
                          <Table.Td key={r.role} ta="center">
                            <Center>
                              <Checkbox
                                checked={granted(r, p.name)}
                                disabled={r.locked || saving === r.role}
                                onChange={(e) => setDraft((d) => toggle(d, r, p.name, e.currentTarget.checked))}
                                aria-label={t('cellLabel', { permission: label, role: roleName(r) })}
                                data-testid={`perm-${r.role}-${p.name}`}
                              />
                            </Center>
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    );
                  })}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </>
  );
}
