import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowMenu } from '../components/RowMenu';
import { useTouchSize } from '../touch';
import { ActionIcon, Badge, Button, Card, Center, Checkbox, Group, Loader, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCheck, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import type { HandlingType } from '../api';
import { useDeleteHandlingType, useHandlingTypes, useSaveHandlingType } from '../hooks';
import { reorderPatches } from '../order';
import { DeleteOrDeactivateModal } from '../components/DeleteOrDeactivateModal';
import '@/app/pageStyles';

function fieldOrMessage(err: unknown, tc: Parameters<typeof errorMessage>[1]): string {
  if (isApiError(err) && err.fields.name) return err.fields.name;
  return errorMessage(err, tc);
}

function HandlingRow({
  item,
  index,
  count,
  canManage,
  busy,
  onMove,
  onDelete,
}: {
  item: HandlingType;
  index: number;
  count: number;
  canManage: boolean;
  busy: boolean;
  onMove: (from: number, to: number) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('violation-types');
  const touch = useTouchSize();
  const { t: tc } = useTranslation();
  const save = useSaveHandlingType();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(item.name);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!editing) setName(item.name);
  }, [item.name, editing]);

  const rename = () => {
    setError(null);
    save.mutate(
      { id: item.id, input: { name: name.trim() } },
      {
        onSuccess: (h) => {
          notifySuccess(t('handling.saved', { name: h.name }));
          setEditing(false);
        },
        onError: (err) => setError(fieldOrMessage(err, tc)),
      },
    );
  };

  const toggle = (active: boolean) =>
    save.mutate(
      { id: item.id, input: { active } },
      {
        onSuccess: (h) => notifySuccess(active ? t('handling.activated', { name: h.name }) : t('handling.deactivated', { name: h.name })),
        onError: (err) => notifyError(err, tc),
      },
    );

  const setSummons = (summons_parent: boolean) =>
    save.mutate(
      { id: item.id, input: { summons_parent } },
      {
        onSuccess: (h) => notifySuccess(summons_parent ? t('handling.summonsOn', { name: h.name }) : t('handling.summonsOff', { name: h.name })),
        onError: (err) => notifyError(err, tc),
      },
    );

  return (
    <Group
      data-testid={`handling-row-${index}`}
      justify="space-between"
      wrap="nowrap"
      px="md"
      py="sm"
      gap="sm"
      style={{ borderTop: index > 0 ? '1px solid var(--mantine-color-default-border)' : undefined }}
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <Badge variant="default" size="sm" miw={28} aria-label={`${t('handling.order')} ${index + 1}`}>
          {index + 1}
        </Badge>
        {editing ? (
          <form
            style={{ flex: 1, minWidth: 0 }}
            onSubmit={(e) => {
              e.preventDefault();
              rename();
            }}
          >
            <Group gap={4} wrap="nowrap" align="flex-start">
              <TextInput
                aria-label={t('handling.fields.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={error}
                maxLength={100}
                autoFocus
                size="sm"
                style={{ flex: 1, minWidth: 0 }}
              />
              <ActionIcon type="submit" variant="filled" size="lg" aria-label={tc('actions.save')} loading={save.isPending}>
                <IconCheck size={18} />
              </ActionIcon>
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={tc('actions.cancel')}
                onClick={() => {
                  setEditing(false);
                  setError(null);
                }}
              >
                <IconX size={18} />
              </ActionIcon>
            </Group>
          </form>
        ) : (
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} c={item.active ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
              {item.name}
            </Text>
            {canManage ? (
              <Checkbox
                size="xs"
                label={t('handling.summonsParent')}
                aria-label={`${t('handling.summonsParent')}: ${item.name}`}
                checked={item.summons_parent}
                disabled={save.isPending}
                onChange={(e) => setSummons(e.currentTarget.checked)}
              />
            ) : (
              item.summons_parent && (
                <Badge variant="light" color="grape" size="sm">
                  {t('handling.summonsBadge')}
                </Badge>
              )
            )}
          </Stack>
        )}
      </Group>
      {!editing && (
        <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
          {canManage ? (
            <>
              <Switch
                checked={item.active}
                onChange={(e) => toggle(e.currentTarget.checked)}
                aria-label={t('handling.toggle', { name: item.name })}
                mr={6}
                disabled={save.isPending}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size={touch}
                aria-label={t('handling.moveUp', { name: item.name })}
                disabled={index === 0 || busy}
                onClick={() => onMove(index, index - 1)}
              >
                <IconArrowUp size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="gray"
                size={touch}
                aria-label={t('handling.moveDown', { name: item.name })}
                disabled={index === count - 1 || busy}
                onClick={() => onMove(index, index + 1)}
              >
                <IconArrowDown size={18} />
              </ActionIcon>
              <RowMenu
                label={t('types.actionsFor', { name: item.name })}
                items={[
                  { label: t('handling.rename', { name: item.name }), icon: <IconPencil size={16} />, onClick: () => setEditing(true) },
                  { label: t('handling.deleteAction', { name: item.name }), icon: <IconTrash size={16} />, onClick: onDelete, danger: true },
                ]}
              />
            </>
          ) : (
            <Badge variant="dot" color={item.active ? 'teal' : 'gray'}>
              {item.active ? tc('status.active') : tc('status.inactive')}
            </Badge>
          )}
        </Group>
      )}
    </Group>
  );
}

function DeleteHandlingModal({ item, onClose }: { item: HandlingType | null; onClose: () => void }) {
  const { t } = useTranslation('violation-types');
  return (
    <DeleteOrDeactivateModal
      item={item}
      onClose={onClose}
      remove={useDeleteHandlingType()}
      save={useSaveHandlingType()}
      texts={(h) => ({
        title: t('handling.deleteDialog.title'),
        confirm: t('handling.deleteDialog.confirm', { name: h.name }),
        explain: t('handling.deleteDialog.explain'),
        submit: t('handling.deleteDialog.submit'),
        deactivate: t('handling.deleteDialog.deactivate'),
        deleted: t('handling.deleted', { name: h.name }),
        deactivated: t('handling.deactivated', { name: h.name }),
      })}
    />
  );
}

export default function HandlingTypesPage() {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canManage = can('violation_types.manage');
  const list = useHandlingTypes();
  const create = useSaveHandlingType();
  const reorder = useSaveHandlingType();
  const [name, setName] = useState('');
  const [summons, setSummons] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<HandlingType | null>(null);
  const [moving, setMoving] = useState(false);
  const items = list.data?.data ?? [];

  const add = () => {
    setCreateError(null);
    if (!name.trim()) {
      setCreateError(tc('validation.required'));
      return;
    }
    create.mutate(
      { input: { name: name.trim(), summons_parent: summons } },
      {
        onSuccess: (h) => {
          notifySuccess(t('handling.created', { name: h.name }));
          setName('');
          setSummons(false);
        },
        onError: (err) => setCreateError(fieldOrMessage(err, tc)),
      },
    );
  };

  const move = async (from: number, to: number) => {
    setMoving(true);
    try {
      for (const p of reorderPatches(items, from, to)) {
        await reorder.mutateAsync({ id: p.id, input: { sort_order: p.sort_order } });
      }
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setMoving(false);
    }
  };

  return (
    <>
      <PageHeader title={t('handling.title')} description={t('handling.description')} />
      {canManage && (
        <Card withBorder mb="md">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              add();
            }}
          >
            <Group gap="sm" align="flex-start" wrap="nowrap">
              <TextInput
                aria-label={t('handling.newName')}
                placeholder={t('handling.newName')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={createError}
                maxLength={100}
                style={{ flex: 1, minWidth: 0 }}
              />
              <Button type="submit" leftSection={<IconPlus size={18} />} loading={create.isPending}>
                {t('handling.add')}
              </Button>
            </Group>
            <Checkbox
              mt="sm"
              label={t('handling.summonsParent')}
              checked={summons}
              onChange={(e) => setSummons(e.currentTarget.checked)}
            />
          </form>
        </Card>
      )}
      <Card withBorder padding={0} data-testid="handling-list">
        {list.isPending && (
          <Center p="xl">
            <Loader aria-label={tc('loading')} />
          </Center>
        )}
        {list.isError && (
          <Text c="red" p="md" role="alert">
            {errorMessage(list.error, tc)}
          </Text>
        )}
        {list.data && items.length === 0 && (
          <Text c="dimmed" ta="center" p="xl">
            {t('handling.empty')}
          </Text>
        )}
        {items.map((h, i) => (
          <HandlingRow
            key={h.id}
            item={h}
            index={i}
            count={items.length}
            canManage={canManage}
            busy={moving}
            onMove={(a, b) => void move(a, b)}
            onDelete={() => setDeleting(h)}
          />
        ))}
      </Card>
      <DeleteHandlingModal item={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
