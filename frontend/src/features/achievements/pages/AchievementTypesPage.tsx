import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconCategory, IconDownload, IconFileSpreadsheet, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { ListStatus } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { applyServerErrors, errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { saveFile } from '@/platform';
import { achievementsApi, LEVELS, TEMPLATE_FILE_NAME, type AchievementType, type ImportResult, type Level } from '../api';
import { CategoriesModal } from '../components/CategoriesModal';
import { applicableLevels, pointsFromForm } from '../levels';
import '@/app/pageStyles';

const TYPES_KEY = ['achievements', 'types'];

function TypeForm({ type, onClose }: { type: AchievementType | null; onClose: () => void }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const qc = useQueryClient();
  const types = useQuery({ queryKey: TYPES_KEY, queryFn: ({ signal }) => achievementsApi.types(signal) });
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: {
      category_id: type ? String(type.category_id) : '',
      name: type?.name ?? '',
      description: type?.description ?? '',
      active: type?.active ?? true,
      points: '',
      ...Object.fromEntries(LEVELS.map((l) => [l, type?.points[l] == null ? '' : String(type.points[l])])),
    } as Record<string, string | boolean>,
  });
  const save = useMutation({
    mutationFn: () => {
      const v = form.getValues();
      const input = {
        category_id: Number(v.category_id) || undefined,
        name: String(v.name),
        description: String(v.description),
        active: Boolean(v.active),
        points: pointsFromForm(Object.fromEntries(LEVELS.map((l) => [l, String(v[l])])) as Record<Level, string>),
      };
      return type ? achievementsApi.updateType(type.id, input) : achievementsApi.createType(input);
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['achievements'] });
      notifySuccess(t('types.saved'));
      onClose();
    },
    onError: (err) => setProblem(applyServerErrors(form, err, tc)),
  });
  return (
    <form onSubmit={form.onSubmit(() => save.mutate())} data-testid="achievement-type-form">
      <Stack>
        {problem && <Alert color="red">{problem}</Alert>}
        <Select
          label={t('types.category')}
          required
          data={(types.data?.categories ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          {...form.getInputProps('category_id')}
          data-testid="type-category"
        />
        <TextInput label={t('types.name')} required maxLength={150} {...form.getInputProps('name')} data-testid="type-name" />
        <Text size="sm" fw={500}>
          {t('types.pointsPerLevel')}
        </Text>
        <Text size="xs" c="dimmed" mt={-12}>
          {t('types.pointsHint')}
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 5 }}>
          {LEVELS.map((l) => (
            <TextInput key={l} label={t(`level.${l}`)} inputMode="numeric" {...form.getInputProps(l)} data-testid={`type-points-${l}`} />
          ))}
        </SimpleGrid>
        {form.errors.points && (
          <Text c="red" size="sm">
            {form.errors.points}
          </Text>
        )}
        <Textarea label={t('types.description')} autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
        <Switch label={t('types.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="type-save">
            {tc('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ImportPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: ({ f, dry }: { f: File; dry: boolean }) => achievementsApi.importTypes(f, dry),
    onSuccess: (res) => {
      setProblem(null);
      if (res.dry_run) {
        setPreview(res);
        return;
      }
      void qc.invalidateQueries({ queryKey: ['achievements'] });
      notifySuccess(t('import.done', { count: res.created.length }));
      onClose();
    },
    onError: (err) => setProblem(errorMessage(err, tc)),
  });
  const template = async () => {
    try {
      const { blob } = await achievementsApi.importTemplate();
      await saveFile(blob, TEMPLATE_FILE_NAME);
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Stack>
      <Text size="sm">{t('import.description')}</Text>
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void template()}>
        {t('import.template')}
      </Button>
      <FileInput
        label={t('import.file')}
        accept=".xlsx"
        value={file}
        onChange={(f) => {
          setFile(f);
          setPreview(null);
        }}
        data-testid="import-file"
      />
      {problem && <Alert color="red">{problem}</Alert>}
      {preview && (
        <Stack gap={4} data-testid="import-preview">
          <Text size="sm" fw={500}>
            {t('import.preview', { created: preview.created.length, skipped: preview.skipped.length, rejected: preview.rejected.length })}
          </Text>
          {[...preview.skipped, ...preview.rejected].map((r) => (
            <Text key={r.row} size="xs" c="dimmed">
              {t('import.row', { row: r.row, name: r.name, reason: r.reason })}
            </Text>
          ))}
        </Stack>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {tc('actions.cancel')}
        </Button>
        {preview ? (
          <Button loading={run.isPending} disabled={preview.created.length === 0} onClick={() => file && run.mutate({ f: file, dry: false })} data-testid="import-confirm">
            {t('import.confirm', { count: preview.created.length })}
          </Button>
        ) : (
          <Button loading={run.isPending} disabled={!file} onClick={() => file && run.mutate({ f: file, dry: true })} data-testid="import-preview-button">
            {t('import.check')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

export default function AchievementTypesPage() {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canManage = can('achievement_types.manage');
  const phone = !!useMediaQuery('(max-width: 48em)');
  const qc = useQueryClient();
  const types = useQuery({ queryKey: TYPES_KEY, queryFn: ({ signal }) => achievementsApi.types(signal) });
  const [editing, setEditing] = useState<AchievementType | null | 'new'>(null);
  const [importing, setImporting] = useState(false);
  const [categories, setCategories] = useState(false);
  const [deleting, setDeleting] = useState<AchievementType | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => achievementsApi.deleteType(id),
    onSuccess: () => {
      setDeleting(null);
      void qc.invalidateQueries({ queryKey: ['achievements'] });
    },
    onError: (err) => notifyError(err, tc),
  });

  return (
    <>
      <PageHeader
        title={t('types.title')}
        description={t('types.subtitle')}
        actions={
          canManage && (
            <Group gap="xs">
              <Button variant="default" leftSection={<IconCategory size={16} />} onClick={() => setCategories(true)} data-testid="categories-open">
                {t('categories.open')}
              </Button>
              <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} onClick={() => setImporting(true)} data-testid="import-open">
                {t('import.open')}
              </Button>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="type-add">
                {t('types.add')}
              </Button>
            </Group>
          )
        }
      />
      <ListStatus query={types} count={types.data?.data.length ?? 0} empty={{ message: t('types.empty') }} />
      <Stack>
        {(types.data?.categories ?? [])
          .filter((c) => types.data?.data.some((ty) => ty.category_id === c.id))
          .map((c) => (
            <Card key={c.id} withBorder padding={0} data-testid={`achievement-category-${c.name}`}>
              <Text fw={600} px="md" py="xs" bg="var(--mantine-color-default-hover)">
                {c.name}
              </Text>
              {types.data?.data
                .filter((ty) => ty.category_id === c.id)
                .map((ty) => (
                  <Group
                    key={ty.id}
                    justify="space-between"
                    wrap="nowrap"
                    align="flex-start"
                    px="md"
                    py="sm"
                    style={{ borderTop: '1px solid var(--mantine-color-default-border)', opacity: ty.active ? 1 : 0.6 }}
                    data-testid={`achievement-type-${ty.name}`}
                  >
                    <Stack gap={4} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {ty.name} {!ty.active && <Badge size="xs" color="gray">{tc('status.inactive')}</Badge>}
                      </Text>
                      <Group gap={4}>
                        {applicableLevels(ty.points).map((l) => (
                          <Badge key={l} size="sm" variant="light" color="teal">
                            {t(`level.${l}`)}: {ty.points[l]}
                          </Badge>
                        ))}
                      </Group>
                    </Stack>
                    {canManage && (
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon variant="subtle" size="lg" aria-label={`${tc('actions.edit')} ${ty.name}`} onClick={() => setEditing(ty)}>
                          <IconPencil size={18} />
                        </ActionIcon>
                        {ty.use_count === 0 && (
                          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`${tc('actions.delete')} ${ty.name}`} onClick={() => setDeleting(ty)}>
                            <IconTrash size={18} />
                          </ActionIcon>
                        )}
                      </Group>
                    )}
                  </Group>
                ))}
            </Card>
          ))}
      </Stack>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('types.add') : t('types.edit')} fullScreen={phone} size="lg">
        {editing !== null && <TypeForm type={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('types.deleteTitle')}>
        <Stack>
          <Text size="sm">{t('types.deleteConfirm', { name: deleting?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id)} data-testid="type-delete-confirm">
              {tc('actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <CategoriesModal opened={categories} onClose={() => setCategories(false)} fullScreen={phone} />
      <Modal opened={importing} onClose={() => setImporting(false)} title={t('import.title')} fullScreen={phone}>
        {importing && <ImportPanel onClose={() => setImporting(false)} />}
      </Modal>
    </>
  );
}
