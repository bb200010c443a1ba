import { useTranslation } from 'react-i18next';
import { Code, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import type { AuditEntry } from '../api';
import { hasDetails, permissionDiff } from '../actions';

function PermissionList({ title, names, added }: { title: string; names: string[]; added: boolean }) {
  const color = added ? 'teal' : 'red';
  return (
    <Stack gap={4} data-testid={added ? 'perm-added' : 'perm-removed'}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <List
        spacing={2}
        size="sm"
        center
        icon={
          <ThemeIcon color={color} size={18} radius="xl" variant="light">
            {added ? <IconPlus size={12} /> : <IconMinus size={12} />}
          </ThemeIcon>
        }
      >
        {names.map((p) => (
          <List.Item key={p}>
            <Text span size="sm" ff="monospace" c={added ? undefined : 'red.8'} td={added ? undefined : 'line-through'}>
              {p}
            </Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** A role's before/after as granted/revoked permissions. */
function RolePermissionsDetails({ details }: { details: unknown }) {
  const { t } = useTranslation('audit');
  const diff = permissionDiff(details);
  if (diff.added.length === 0 && diff.removed.length === 0) {
    return <Text size="sm">{t('permissions.none')}</Text>;
  }
  return (
    <Stack gap="xs">
      <Group align="flex-start" gap="xl">
        {diff.added.length > 0 && <PermissionList title={t('permissions.added')} names={diff.added} added />}
        {diff.removed.length > 0 && <PermissionList title={t('permissions.removed')} names={diff.removed} added={false} />}
      </Group>
      {diff.kept > 0 && (
        <Text size="xs" c="dimmed">
          {t('permissions.kept', { count: diff.kept })}
        </Text>
      )}
    </Stack>
  );
}

/** The expanded part of an audit entry: a permission diff for roles, else the JSON as recorded. */
export function AuditDetails({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  if (entry.action === 'role.permissions.update') return <RolePermissionsDetails details={entry.details} />;
  if (!hasDetails(entry.details)) {
    return (
      <Text size="sm" c="dimmed">
        {t('noDetails')}
      </Text>
    );
  }
  return (
    <Code
      block
      bg="var(--mantine-color-body)"
      data-testid="audit-details-json"
      style={{ border: '1px solid var(--mantine-color-gray-3)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 360, overflowY: 'auto' }}>
      {JSON.stringify(entry.details, null, 2)}
    </Code>
  );
}
