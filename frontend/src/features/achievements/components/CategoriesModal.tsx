import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconPlus, IconTrash } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { achievementsApi, type AchievementCategory } from '../api';

function CategoryRow({ c, onError }: { c: AchievementCategory; onError: (m: string) => void }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState(c.name);
  const done = () => void qc.invalidateQueries({ queryKey: ['achievements'] });
  const rename = useMutation({ mutationFn: () => achievementsApi.updateCategory(c.id, name), onSuccess: done, onError: (e) => onError(errorMessage(e, tc)) });
  const remove = useMutation({ mutationFn: () => achievementsApi.deleteCategory(c.id), onSuccess: done, onError: (e) => onError(errorMessage(e, tc)) });
  return (
    <Group gap="xs" wrap="nowrap" data-testid={`achievement-category-row-${c.id}`}>
      <TextInput style={{ flex: 1, minWidth: 0 }} aria-label={t('categories.name')} value={name} maxLength={50} onChange={(e) => setName(e.currentTarget.value)} />
      <Text size="xs" c="dimmed" w={60} ta="right">
        {t('categories.types', { count: c.type_count })}
      </Text>
      <ActionIcon variant="subtle" size="lg" aria-label={`${tc('actions.save')} ${c.name}`} disabled={name.trim() === c.name} loading={rename.isPending} onClick={() => rename.mutate()}>
        <IconCheck size={18} />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" size="lg" aria-label={`${tc('actions.delete')} ${c.name}`} disabled={c.type_count > 0} loading={remove.isPending} onClick={() => remove.mutate()}>
        <IconTrash size={18} />
      </ActionIcon>
    </Group>
  );
}

/** The school's achievement categories: rename, add, delete an empty one. */
export function CategoriesModal({ opened, onClose, fullScreen }: { opened: boolean; onClose: () => void; fullScreen: boolean }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const qc = useQueryClient();
  const cats = useQuery({ queryKey: ['achievements', 'categories'], queryFn: ({ signal }) => achievementsApi.categories(signal), enabled: opened });
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () => achievementsApi.createCategory(name),
    onSuccess: () => {
      setName('');
      setProblem(null);
      void qc.invalidateQueries({ queryKey: ['achievements'] });
    },
    onError: (e) => setProblem(errorMessage(e, tc)),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('categories.title')} fullScreen={fullScreen}>
      <Stack gap="sm">
        {problem && <Alert color="red">{problem}</Alert>}
        {(cats.data?.data ?? []).map((c) => (
          <CategoryRow key={`${c.id}-${c.name}`} c={c} onError={setProblem} />
        ))}
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput style={{ flex: 1 }} label={t('categories.new')} value={name} maxLength={50} onChange={(e) => setName(e.currentTarget.value)} />
          <Button leftSection={<IconPlus size={16} />} disabled={name.trim() === ''} loading={add.isPending} onClick={() => add.mutate()}>
            {t('categories.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
