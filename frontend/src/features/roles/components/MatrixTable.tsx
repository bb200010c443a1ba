import { Fragment, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Box, Button, Center, Checkbox, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconDeviceFloppy, IconLock } from '@tabler/icons-react';
import type { PermissionName } from '@/api/types';
import type { RoleInfo } from '../api';
import { cellLocked, isDirty, permissionLabel, type Draft, type PermissionGroup } from '../matrix';
import { PermissionLabel } from './PermissionLabel';

interface Props {
  groups: PermissionGroup[];
  roles: RoleInfo[];
  draft: Draft;
  saving: string | null;
  roleName: (r: RoleInfo) => string;
  granted: (r: RoleInfo, p: PermissionName) => boolean;
  onToggle: (r: RoleInfo, p: PermissionName, on: boolean) => void;
  onSaveRole: (r: RoleInfo) => void;
  onUndoRole: (r: RoleInfo) => void;
}

const body = 'var(--mantine-color-body)';
// Each header cell and each first-column cell is sticky itself (not the thead): the corner
// cell stays above both, the header row above the body, the permission column above the ticks.
/** The first column stays while the roles scroll sideways. */
const stickyFirst: CSSProperties = { position: 'sticky', left: 0, zIndex: 1, background: body };
const stickyTop: CSSProperties = { position: 'sticky', top: 0, zIndex: 2, background: body };
const stickyCorner: CSSProperties = { position: 'sticky', top: 0, left: 0, zIndex: 3, background: body };

/**
 * Desktop: permissions down, roles across, inside its own scrolling box so the header row and
 * the permission column both stay in view whichever way the matrix scrolls.
 */
export function MatrixTable({ groups, roles, draft, saving, roleName, granted, onToggle, onSaveRole, onUndoRole }: Props) {
  const { t, i18n } = useTranslation('roles');
  const { t: tc } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'id';
  return (
    <Box
      style={{ overflow: 'auto', maxHeight: 'calc(100dvh - 240px)', minHeight: 320 }}
      data-testid="roles-matrix-scroll"
      tabIndex={0}
      role="region"
      aria-label={t('title')}
    >
      <Table withColumnBorders verticalSpacing="xs" aria-label={t('title')} data-testid="roles-matrix" miw={980}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th miw={300} style={stickyCorner}>
              {t('permission')}
            </Table.Th>
            {roles.map((r) => {
              const dirty = isDirty(r, draft);
              return (
                <Table.Th key={r.role} ta="center" miw={96} data-testid={`role-col-${r.role}`} style={stickyTop}>
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
                          onClick={() => onSaveRole(r)}
                          aria-label={t('saveRole', { role: roleName(r) })}
                        >
                          {tc('actions.save')}
                        </Button>
                        <ActionIcon size="sm" variant="subtle" color="gray" onClick={() => onUndoRole(r)} aria-label={t('undoRole', { role: roleName(r) })}>
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
                <Table.Td colSpan={roles.length + 1} p={0}>
                  <Text size="xs" fw={700} tt="uppercase" px="sm" py={6} style={{ position: 'sticky', left: 0, display: 'inline-block' }}>
                    {t(`groups.${g.group}`, { defaultValue: g.group })}
                  </Text>
                </Table.Td>
              </Table.Tr>
              {g.permissions.map((p) => {
                const label = permissionLabel(p, lang);
                return (
                  <Table.Tr key={p.name} data-testid={`perm-row-${p.name}`}>
                    <Table.Th scope="row" style={stickyFirst} fw="normal">
                      <PermissionLabel permission={p} />
                    </Table.Th>
                    {roles.map((r) => (
                      <Table.Td key={r.role} ta="center">
                        <Center>
                          <Checkbox
                            checked={granted(r, p.name)}
                            disabled={cellLocked(r, p) || saving !== null}
                            onChange={(e) => onToggle(r, p.name, e.currentTarget.checked)}
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
    </Box>
  );
}
