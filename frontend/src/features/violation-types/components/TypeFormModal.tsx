import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import type { TypeInput, ViolationCategory, ViolationType } from '../api';
import { useSaveType } from '../hooks';

interface Values {
  name: string;
  slug: string;
  points: number | string;
  category_id: string;
  default_sanction: string;
  description: string;
  active: boolean;
}

/** Create (type undefined) or edit a violation type; the server's field errors land at the fields. */
export function TypeFormModal({
  opened,
  type,
  categories,
  defaultCategoryId,
  onClose,
}: {
  opened: boolean;
  type?: ViolationType;
  categories: ViolationCategory[];
  defaultCategoryId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const save = useSaveType();
  const [error, setError] = useState<string | null>(null);
  const system = !!type?.is_system;

  const form = useForm<Values>({
    initialValues: { name: '', slug: '', points: '', category_id: '', default_sanction: '', description: '', active: true },
    validate: {
      name: (v) => (v.trim() ? null : tc('validation.required')),
      category_id: (v) => (v ? null : tc('validation.required')),
    },
  });

  useEffect(() => {
    if (!opened) return;
    setError(null);
    const firstCategory = defaultCategoryId ?? categories[0]?.id;
    const values: Values = type
      ? {
          name: type.name,
          slug: type.slug,
          points: type.points,
          category_id: String(type.category_id),
          default_sanction: type.default_sanction,
          description: type.description,
          active: type.active,
        }
      : { name: '', slug: '', points: '', category_id: firstCategory ? String(firstCategory) : '', default_sanction: '', description: '', active: true };
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    // reset only when the modal opens
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [opened, type]);

  const submit = (v: Values) => {
    setError(null);
    const input: TypeInput = {
      name: v.name.trim(),
      points: typeof v.points === 'number' ? v.points : v.points.trim() === '' ? undefined : Number(v.points),
      category_id: Number(v.category_id),
      default_sanction: v.default_sanction.trim(),
      description: v.description.trim(),
    };
    if (!system && v.slug.trim()) input.slug = v.slug.trim();
    if (type && !system) input.active = v.active;
    save.mutate(
      { id: type?.id, input },
      {
        onSuccess: (saved) => {
          notifySuccess(type ? t('types.saved', { name: saved.name }) : t('types.created', { name: saved.name }));
          onClose();
        },
        onError: (err) => setError(applyServerErrors(form, err, tc)),
      },
    );
  };

  const title = type ? t('types.form.editTitle') : t('types.form.createTitle');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={title}>
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="form-error">
              {error}
            </Alert>
          )}
          <TextInput label={t('types.fields.name')} required data-autofocus maxLength={150} {...form.getInputProps('name')} />
          <Group grow align="flex-start" wrap="wrap">
            <NumberInput
              label={t('types.fields.points')}
              description={t('types.form.pointsHint')}
              required
              allowDecimal={false}
              clampBehavior="none"
              miw={160}
              {...form.getInputProps('points')}
            />
            <Select
              label={t('types.fields.category')}
              required
              miw={160}
              data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('category_id')}
            />
          </Group>
          <Textarea label={t('types.fields.sanction')} autosize minRows={2} maxLength={500} {...form.getInputProps('default_sanction')} />
          <Textarea label={t('types.fields.description')} autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
          <TextInput
            label={t('types.fields.slug')}
            description={system ? t('types.form.slugLocked') : t('types.form.slugHint')}
            readOnly={system}
            autoCapitalize="none"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            maxLength={80}
            {...form.getInputProps('slug')}
          />
          {type && (
            <Switch
              label={t('types.fields.active')}
              description={system ? t('types.form.activeLocked') : t('types.form.activeHint')}
              disabled={system}
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
