import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Card, Center, Loader } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { PermissionName, Role } from '@/api/types';
import { PageHeader } from '@/components/PageHeader';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import type { RoleInfo } from '../api';
import { LeaveGuard } from '../components/LeaveGuard';
import { MatrixTable } from '../components/MatrixTable';
import { RoleSwitchList } from '../components/RoleSwitchList';
import { SaveBar } from '../components/SaveBar';
import { usePermissionCatalogue, useRoles, useSaveRolePermissions } from '../hooks';
import { changeCount, dirtyRoles, groupPermissions, toggle, type Draft } from '../matrix';
import '@/app/pageStyles';

export default function RolesPage() {
  const { t } = useTranslation('roles');
  const { t: tc } = useTranslation();
  const catalogue = usePermissionCatalogue();
  const roles = useRoles();
  const save = useSaveRolePermissions();
  const phone = useMediaQuery('(max-width: 48em)');
  const [draft, setDraft] = useState<Draft>({});
  const [saving, setSaving] = useState<string | null>(null);
  const [phoneRole, setPhoneRole] = useState<Role | null>(null);

  const roleList = roles.data?.data ?? [];
  const count = changeCount(roleList, draft);

  if (catalogue.isPending || roles.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={tc('loading')} />
      </Center>
    );
  }
  if (!catalogue.data || !roles.data) return null;

  const groups = groupPermissions(catalogue.data.data);
  const roleName = (r: RoleInfo) => tc(`role.${r.role}`, { defaultValue: r.label });
  const granted = (r: RoleInfo, p: PermissionName) => r.locked || (draft[r.role] ?? r.permissions).includes(p);
  const onToggle = (r: RoleInfo, p: PermissionName, on: boolean) => setDraft((d) => toggle(d, r, p, on));
  const drop = (role: Role) => setDraft(({ [role]: _dropped, ...rest }) => rest);

  const saveOne = async (r: RoleInfo): Promise<boolean> => {
    const permissions = draft[r.role];
    if (!permissions) return true;
    setSaving(r.role);
    try {
      await save.mutateAsync({ role: r.role, permissions });
      drop(r.role);
      return true;
    } catch (err) {
      notifyError(err, tc);
      return false;
    } finally {
      setSaving(null);
    }
  };

  const saveRole = async (r: RoleInfo) => {
    if (await saveOne(r)) notifySuccess(t('saved', { role: roleName(r) }));
  };

  /** Saves every changed role in turn; one that fails keeps its changes on screen. */
  const saveAll = async () => {
    const todo = dirtyRoles(roleList, draft);
    const done: string[] = [];
    for (const r of todo) {
      if (!(await saveOne(r))) break;
      done.push(roleName(r));
    }
    if (done.length === 1) notifySuccess(t('saved', { role: done[0] }));
    else if (done.length > 1) notifySuccess(t('savedMany', { roles: done.join(', ') }));
  };

  const current = roleList.find((r) => r.role === phoneRole) ?? roleList.find((r) => !r.locked) ?? roleList[0];

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Alert variant="light" icon={<IconInfoCircle />} mb="md">
        {phone ? t('hintPhone') : t('hint')}
      </Alert>
      {phone ? (
        current && (
          <RoleSwitchList
            groups={groups}
            roles={roleList}
            role={current}
            draft={draft}
            saving={saving}
            roleName={roleName}
            granted={granted}
            onRole={setPhoneRole}
            onToggle={onToggle}
          />
        )
      ) : (
        <Card withBorder padding={0}>
          <MatrixTable
            groups={groups}
            roles={roleList}
            draft={draft}
            saving={saving}
            roleName={roleName}
            granted={granted}
            onToggle={onToggle}
            onSaveRole={(r) => void saveRole(r)}
            onUndoRole={(r) => drop(r.role)}
          />
        </Card>
      )}
      <SaveBar count={count} saving={saving !== null} onSave={() => void saveAll()} onDiscard={() => setDraft({})} />
      <LeaveGuard dirty={count > 0} />
    </>
  );
}
