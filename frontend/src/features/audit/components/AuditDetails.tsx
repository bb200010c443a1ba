import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Box, Button, Code, Collapse, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconMinus, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { List as ApiList } from '@/api/types';
import { useSession } from '@/auth/session';
import { useFormatNumber } from '@/lib/numbers';
import type { AuditEntry } from '../api';
import { hasDetails, permissionDiff } from '../actions';
import { detailLines, fieldLabel, formatValue } from '../describe';

/**
 * Permission labels in the reader's language. The catalogue needs roles.manage; without it
 * the codes are all there is (most audit readers are administrators, who have it).
 */
function usePermissionLabel() {
  const { i18n } = useTranslation();
  const { can } = useSession();
  const catalogue = useQuery({
    queryKey: ['audit', 'permission-labels'],
    queryFn: ({ signal }) => api.get<ApiList<{ name: string; label: string; label_en: string }>>('/permissions', undefined, signal),
    enabled: can('roles.manage'),
    throwOnError: false,
    staleTime: 5 * 60_000,
  });
  const en = (i18n.resolvedLanguage ?? i18n.language).startsWith('en');
  return (code: string) => {
    const p = catalogue.data?.data.find((x) => x.name === code);
    return p ? (en ? p.label_en : p.label) : code;
  };
}

function PermissionList({ title, names, added }: { title: string; names: string[]; added: boolean }) {
  const label = usePermissionLabel();
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
            <Text span size="sm" c={added ? undefined : 'red.9'} td={added ? undefined : 'line-through'} data-permission={p}>
              {label(p)}
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

/** The details as recorded, for whoever has to look behind the words. Closed at first. */
function TechnicalDetails({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  const [open, setOpen] = useState(false);
  const id = `audit-technical-${entry.id}`;
  return (
    <Stack gap={4}>
      <Button
        variant="subtle"
        color="gray"
        size="compact-xs"
        px={0}
        style={{ alignSelf: 'flex-start' }}
        leftSection={open ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid="audit-technical-toggle"
      >
        {open ? t('hideTechnical') : t('technical')}
      </Button>
      <Collapse in={open}>
        <Code
          id={id}
          block
          bg="var(--mantine-color-body)"
          data-testid="audit-details-json"
          style={{ border: '1px solid var(--mantine-color-gray-3)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 360, overflowY: 'auto' }}
        >
          {JSON.stringify(entry.details, null, 2)}
        </Code>
      </Collapse>
    </Stack>
  );
}

/** What changed ("Name: Alpha → Bolos") and the values recorded, in the school's words. */
function ReadableDetails({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  const num = useFormatNumber();
  const lines = detailLines(entry.action, entry.details);
  if (lines.length === 0) return null;
  // A description list: each label beside its value ("Nama: Alpha → Bolos").
  return (
    <Box
      component="dl"
      m={0}
      data-testid="audit-details-readable"
      style={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 'var(--mantine-spacing-md)', rowGap: 4 }}
    >
      {lines.map((l) => (
        <Fragment key={l.field}>
          <Text component="dt" size="sm" fw={600} data-field={l.field}>
            {fieldLabel(l.field, t)}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }} data-changed={l.changed || undefined}>
            {l.changed ? (
              <>
                <Text span size="sm" td="line-through" c="dimmed">
                  {formatValue(l.field, l.before, t, num)}
                </Text>
                {' → '}
                <Text span size="sm" fw={600}>
                  {formatValue(l.field, l.after, t, num)}
                </Text>
              </>
            ) : (
              formatValue(l.field, l.value, t, num)
            )}
          </Text>
        </Fragment>
      ))}
    </Box>
  );
}

/**
 * The expanded part of an audit entry: a permission diff for roles, else the changed fields and
 * values in words; the raw details stay behind a "technical details" toggle.
 */
export function AuditDetails({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  if (!hasDetails(entry.details)) {
    return (
      <Text size="sm" c="dimmed">
        {t('noDetails')}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {entry.action === 'role.permissions.update' ? <RolePermissionsDetails details={entry.details} /> : <ReadableDetails entry={entry} />}
      <TechnicalDetails entry={entry} />
    </Stack>
  );
}
