import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconDots, IconKey, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { ROLES, type Role } from '@/api/types';
import type { UserRow } from '../api';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { useFormatDate } from '@/lib/useFormatDate';
import { DeleteUserModal } from '../components/DeleteUserModal';
import { ResetPasswordModal } from '../components/ResetPasswordModal';
import { UserFormModal } from '../components/UserFormModal';
import { useUsers } from '../hooks';
import { DataList } from '@/components/DataList';
import '@/app/pageStyles';

const PER_PAGE = 20;

interface UserActionsProps {
  user: UserRow;
  self: boolean;
  canManage: boolean;
  canReset: boolean;
  onEdit: () => void;
  onReset: () => void;
  onDelete: () => void;
}

/** The row menu: edit, reset password (never one's own), delete (never oneself). */
function UserActions({ user, self, canManage, canReset, onEdit, onReset, onDelete }: UserActionsProps) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('rowActions', { name: user.name })}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {canManage && (
          <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
            {tc('actions.edit')}
          </Menu.Item>
        )}
        {canReset && !self && (
          <Menu.Item leftSection={<IconKey size={16} />} onClick={onReset}>
            {t('reset.action')}
          </Menu.Item>
        )}
        {canManage && !self && (
          <Menu.Item color="red.8" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            {tc('actions.delete')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

type Editing = { mode: 'create' } | { mode: 'edit'; user: UserRow } | null;

export default function UsersPage() {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const { me, can } = useSession();
  const canManage = can('users.manage');
  const canReset = can('users.reset_password');
  const narrow = useMediaQuery('(max-width: 36em)');

  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [role, setRole] = useState<Role | ''>('');
  const [active, setActive] = useState<'true' | 'false' | ''>('');
  const [page, setPage] = useState(1);
  const users = useUsers({ q, role, active, page, per_page: PER_PAGE });

  const [editing, setEditing] = useState<Editing>(null);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [deleting, setDeleting] = useState<UserRow | null>(null);

  const meta = users.data?.meta;
  const rows = users.data?.data ?? [];
  const selfId = me?.user.id;

  const filterChanged = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  const filtered = !!(q || role || active);
  const clearFilters = () => {
    setSearch('');
    setRole('');
    setActive('');
    setPage(1);
  };

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canManage && (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ mode: 'create' })}>
              {t('add')}
            </Button>
          )
        }
      />
      <Card withBorder padding={0}>
        <Group p="md" gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('filters.search')}
            placeholder={t('filters.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => filterChanged(setSearch)(e.currentTarget.value)}
            style={{ flex: '1 1 220px' }}
          />
          <Select
            label={t('filters.role')}
            placeholder={t('filters.allRoles')}
            data={ROLES.map((r) => ({ value: r, label: tc(`role.${r}`) }))}
            value={role || null}
            onChange={(v) => filterChanged(setRole)((v ?? '') as Role | '')}
            clearable
            style={{ flex: '1 1 180px' }}
          />
          <Select
            label={t('filters.status')}
            placeholder={t('filters.allStatuses')}
            data={[
              { value: 'true', label: tc('status.active') },
              { value: 'false', label: tc('status.inactive') },
            ]}
            value={active || null}
            onChange={(v) => filterChanged(setActive)((v ?? '') as 'true' | 'false' | '')}
            clearable
            style={{ flex: '1 1 150px' }}
          />
        </Group>

        <DataList
          query={users}
          rows={rows}
          rowKey={(u) => u.id}
          narrow={!!narrow}
          label={t('title')}
          testId="users-table"
          minWidth={760}
          striped
          highlightOnHover
          head={
            <>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('fields.username')}</Table.Th>
              <Table.Th>{t('fields.role')}</Table.Th>
              <Table.Th>{t('fields.contact')}</Table.Th>
              <Table.Th>{t('fields.status')}</Table.Th>
              <Table.Th>{t('fields.lastLogin')}</Table.Th>
              {(canManage || canReset) && (
                <Table.Th w={60}>
                  <VisuallyHidden>{t('actions')}</VisuallyHidden>
                </Table.Th>
              )}
            </>
          }
          row={(u) => {
            const self = u.id === selfId;
            return (
              <Table.Tr data-testid={`user-row-${u.username}`}>
                <Table.Td>
                  <Text fw={500} size="sm">
                    {u.name}
                  </Text>
                  {self && (
                    <Text size="xs" c="dimmed">
                      {t('you')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {u.username}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={u.role === 'admin' ? 'grape' : 'blue'}>
                    {tc(`role.${u.role}`)}
                  </Badge>
                  {u.homeroom_class && (
                    <Text size="xs" mt={4} data-testid={`user-class-${u.username}`}>
                      {t('homeroomOf', { class: u.homeroom_class.name })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{u.email || '—'}</Text>
                  {u.phone && (
                    <Text size="xs" c="dimmed">
                      {u.phone}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={u.active ? 'teal' : 'gray'}>
                    {u.active ? tc('status.active') : tc('status.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{u.last_login_at ? fmt(u.last_login_at, 'dateTime') : t('neverSignedIn')}</Text>
                </Table.Td>
                {(canManage || canReset) && (
                  <Table.Td>
                    <UserActions user={u} self={self} canManage={canManage} canReset={canReset} onEdit={() => setEditing({ mode: 'edit', user: u })} onReset={() => setResetting(u)} onDelete={() => setDeleting(u)} />
                  </Table.Td>
                )}
              </Table.Tr>
            );
          }}
          card={(u) => {
            const self = u.id === selfId;
            return (
              <Group
                data-testid={`user-row-${u.username}`}
                justify="space-between"
                wrap="nowrap"
                px="md"
                py="sm"
              >
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Text fw={500} size="sm" truncate>
                    {u.name}
                    {self && (
                      <Text span size="xs" c="dimmed">
                        {' · '}
                        {t('you')}
                      </Text>
                    )}
                  </Text>
                  <Text size="xs" ff="monospace" c="dimmed" truncate>
                    {u.username}
                  </Text>
                  <Group gap={6}>
                    <Badge size="sm" variant="light" color={u.role === 'admin' ? 'grape' : 'blue'}>
                      {tc(`role.${u.role}`)}
                    </Badge>
                    <Badge size="sm" variant="dot" color={u.active ? 'teal' : 'gray'}>
                      {u.active ? tc('status.active') : tc('status.inactive')}
                    </Badge>
                  </Group>
                  {u.homeroom_class && (
                    <Text size="xs" data-testid={`user-class-${u.username}`}>
                      {t('homeroomOf', { class: u.homeroom_class.name })}
                    </Text>
                  )}
                </Stack>
                {(canManage || canReset) && (
                  <UserActions
                    user={u}
                    self={self}
                    canManage={canManage}
                    canReset={canReset}
                    onEdit={() => setEditing({ mode: 'edit', user: u })}
                    onReset={() => setResetting(u)}
                    onDelete={() => setDeleting(u)}
                  />
                )}
              </Group>
            );
          }}
          empty={{ message: filtered ? t('emptyFiltered') : t('empty'), onClearFilters: filtered ? clearFilters : undefined, testId: 'users-empty' }}
          meta={meta}
          onPage={setPage}
        />
      </Card>

      <UserFormModal
        opened={editing !== null}
        user={editing?.mode === 'edit' ? editing.user : undefined}
        selfId={selfId}
        onClose={() => setEditing(null)}
      />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
      <DeleteUserModal user={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
