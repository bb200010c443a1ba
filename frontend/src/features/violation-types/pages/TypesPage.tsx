import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDebouncedValue } from '@mantine/hooks';
import { ActionIcon, Badge, Box, Button, Card, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconFileSpreadsheet, IconLock, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { ListStatus } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import type { ViolationCategory, ViolationType } from '../api';
import { WhatIfPanel } from '@/features/achievements/components/WhatIfPanel';
import { CategoryFormModal, DeleteCategoryModal } from '../components/CategoryModals';
import { DeleteTypeModal } from '../components/DeleteTypeModal';
import { RowMenu } from '../components/RowMenu';
import { TypeFormModal } from '../components/TypeFormModal';
import { cssColour, groupByCategory, mantineColour, type TypeGroup } from '../grouping';
import { useTypes } from '../hooks';
import { paths } from '../paths';
import { useTouchSize } from '../touch';
import '@/app/pageStyles';

type EditingType = { type?: ViolationType; categoryId?: number } | null;
type EditingCategory = { category?: ViolationCategory } | null;

function TypeRow({ type, canManage, onEdit, onDelete }: { type: ViolationType; canManage: boolean; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  return (
    <Group
      data-testid={`type-row-${type.slug}`}
      justify="space-between"
      wrap="nowrap"
      align="flex-start"
      px="md"
      py="sm"
      gap="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)', opacity: type.active ? 1 : 0.65 }}
    >
      <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
        <Group gap={6} wrap="wrap">
          <Text fw={500} size="sm">
            {type.name}
          </Text>
          {type.is_system && (
            <Tooltip label={t('types.systemHint')} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
              <Badge size="sm" variant="light" color="gray" leftSection={<IconLock size={12} />} data-testid="system-badge" tabIndex={0}>
                {t('types.system')}
              </Badge>
            </Tooltip>
          )}
          {!type.active && (
            <Badge size="sm" variant="dot" color="gray">
              {tc('status.inactive')}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {type.default_sanction || t('types.noSanction')}
        </Text>
      </Stack>
      <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
        <Badge variant="filled" color={mantineColour(type.category.colour)} miw={64} data-testid="type-points">
          {t('types.points', { count: type.points })}
        </Badge>
        {canManage && (
          <RowMenu
            label={t('types.actionsFor', { name: type.name })}
            items={[
              { label: `${tc('actions.edit')} ${type.name}`, icon: <IconPencil size={16} />, onClick: onEdit },
              ...(type.is_system ? [] : [{ label: `${tc('actions.delete')} ${type.name}`, icon: <IconTrash size={16} />, onClick: onDelete, danger: true }]),
            ]}
          />
        )}
      </Group>
    </Group>
  );
}

function GroupCard({
  group,
  canManage,
  onAddType,
  onEditType,
  onDeleteType,
  onEditCategory,
  onDeleteCategory,
}: {
  group: TypeGroup;
  canManage: boolean;
  onAddType: () => void;
  onEditType: (t: ViolationType) => void;
  onDeleteType: (t: ViolationType) => void;
  onEditCategory: (c: ViolationCategory) => void;
  onDeleteCategory: (c: ViolationCategory) => void;
}) {
  const { t } = useTranslation('violation-types');
  const touch = useTouchSize();
  const { category, listed, types } = group;
  return (
    <Card withBorder padding={0} data-testid={`category-${category.name}`} style={{ borderLeft: `6px solid ${cssColour(category.colour)}` }}>
      <Group justify="space-between" px="md" py="sm" gap="xs" wrap="nowrap" bg="var(--mantine-color-default-hover)">
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          <Badge size="lg" color={mantineColour(category.colour)} variant="filled" data-testid="category-badge" style={{ maxWidth: '100%' }}>
            {category.name}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('types.count', { count: types.length })}
          </Text>
        </Group>
        {canManage && listed && (
          <Group gap={2} wrap="nowrap">
            <Tooltip label={t('types.add')}>
              <ActionIcon variant="subtle" size={touch} aria-label={`${t('types.add')}: ${category.name}`} onClick={onAddType}>
                <IconPlus size={20} />
              </ActionIcon>
            </Tooltip>
            <RowMenu
              label={t('categories.actionsFor', { name: category.name })}
              items={[
                { label: t('categories.edit', { name: category.name }), icon: <IconPencil size={16} />, onClick: () => onEditCategory(listed) },
                { label: t('categories.delete', { name: category.name }), icon: <IconTrash size={16} />, onClick: () => onDeleteCategory(listed), danger: true },
              ]}
            />
          </Group>
        )}
      </Group>
      {types.map((ty) => (
        <TypeRow key={ty.id} type={ty} canManage={canManage} onEdit={() => onEditType(ty)} onDelete={() => onDeleteType(ty)} />
      ))}
      {types.length === 0 && (
        <Text size="sm" c="dimmed" px="md" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          {t('types.emptyCategory')}
        </Text>
      )}
    </Card>
  );
}

export default function TypesPage() {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canManage = can('violation_types.manage');
  const navigate = useNavigate();

  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [active, setActive] = useState<'true' | 'false' | ''>('');
  const list = useTypes({ q, active });
  const filtered = !!(q || active);
  const clearFilters = () => {
    setSearch('');
    setActive('');
  };
  const categories = list.data?.categories ?? [];
  const groups = groupByCategory(list.data?.data ?? [], categories, { includeEmpty: !filtered });

  const [editingType, setEditingType] = useState<EditingType>(null);
  const [deletingType, setDeletingType] = useState<ViolationType | null>(null);
  const [editingCategory, setEditingCategory] = useState<EditingCategory>(null);
  const [deletingCategory, setDeletingCategory] = useState<ViolationCategory | null>(null);

  return (
    <>
      <PageHeader
        title={t('types.title')}
        description={t('types.description')}
        actions={
          canManage && (
            <>
              <Button leftSection={<IconPlus size={18} />} onClick={() => setEditingType({})} disabled={categories.length === 0}>
                {t('types.add')}
              </Button>
              <Button variant="default" leftSection={<IconPlus size={18} />} onClick={() => setEditingCategory({})}>
                {t('categories.add')}
              </Button>
              <Button variant="default" leftSection={<IconFileSpreadsheet size={18} />} onClick={() => navigate(paths.import)}>
                {t('types.import')}
              </Button>
            </>
          )
        }
      />
      <Card withBorder mb="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('types.search')}
            placeholder={t('types.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: '1 1 220px' }}
          />
          <Select
            label={t('types.status')}
            placeholder={t('types.allStatuses')}
            data={[
              { value: 'true', label: tc('status.active') },
              { value: 'false', label: tc('status.inactive') },
            ]}
            value={active || null}
            onChange={(v) => setActive((v ?? '') as 'true' | 'false' | '')}
            clearable
            style={{ flex: '1 1 150px' }}
          />
        </Group>
      </Card>

      <ListStatus
        query={list}
        count={groups.length}
        empty={{ message: filtered ? t('types.emptyFiltered') : t('types.empty'), onClearFilters: filtered ? clearFilters : undefined, testId: 'types-empty' }}
      />
      <Stack gap="md" data-testid="types-list">
        {groups.map((g) => (
          <GroupCard
            key={g.category.id}
            group={g}
            canManage={canManage}
            onAddType={() => setEditingType({ categoryId: g.category.id })}
            onEditType={(ty) => setEditingType({ type: ty })}
            onDeleteType={setDeletingType}
            onEditCategory={(c) => setEditingCategory({ category: c })}
            onDeleteCategory={setDeletingCategory}
          />
        ))}
      </Stack>
      {can('points_policy.manage') && (
        <Box mt="md">
          <WhatIfPanel withTypes />
        </Box>
      )}
      <Box h="md" />

      <TypeFormModal
        opened={editingType !== null}
        type={editingType?.type}
        defaultCategoryId={editingType?.categoryId}
        categories={categories}
        onClose={() => setEditingType(null)}
      />
      <DeleteTypeModal type={deletingType} onClose={() => setDeletingType(null)} />
      <CategoryFormModal opened={editingCategory !== null} category={editingCategory?.category} onClose={() => setEditingCategory(null)} />
      <DeleteCategoryModal category={deletingCategory} onClose={() => setDeletingCategory(null)} />
    </>
  );
}
