import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { applyServerErrors, errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import type { CategoryInput, ViolationCategory } from '../api';
import { useDeleteCategory, useSaveCategory } from '../hooks';
import { ColourSelect } from './ColourSelect';

interface Values {
  name: string;
  colour: string;
  sort_order: number | string;
}

/** Create (category undefined) or edit a category: name, colour and order. */
export function CategoryFormModal({ opened, category, onClose }: { opened: boolean; category?: ViolationCategory; onClose: () => void }) {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const save = useSaveCategory();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { name: '', colour: 'gray', sort_order: '' },
    validate: { name: (v) => (v.trim() ? null : tc('validation.required')) },
  });

  useEffect(() => {
    if (!opened) return;
    setError(null);
    const values: Values = category
      ? { name: category.name, colour: category.colour, sort_order: category.sort_order }
      : { name: '', colour: 'blue', sort_order: '' };
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [opened, category]);

  const submit = (v: Values) => {
    setError(null);
    const input: CategoryInput = { name: v.name.trim(), colour: v.colour };
    if (v.sort_order !== '' && v.sort_order !== undefined) input.sort_order = Number(v.sort_order);
    save.mutate(
      { id: category?.id, input },
      {
        onSuccess: (c) => {
          notifySuccess(category ? t('categories.saved', { name: c.name }) : t('categories.created', { name: c.name }));
          onClose();
        },
        onError: (err) => setError(applyServerErrors(form, err, tc)),
      },
    );
  };

  const title = category ? t('categories.form.editTitle') : t('categories.form.createTitle');
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={title}>
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="form-error">
              {error}
            </Alert>
          )}
          <TextInput label={t('categories.fields.name')} required data-autofocus maxLength={50} {...form.getInputProps('name')} />
          <ColourSelect
            label={t('categories.fields.colour')}
            value={form.getValues().colour}
            onChange={(v) => form.setFieldValue('colour', v)}
            error={form.errors.colour}
          />
          <NumberInput
            label={t('categories.fields.order')}
            description={t('categories.form.orderHint')}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('sort_order')}
          />
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

/** Confirms, then deletes; while types belong to it the server answers 409 and its message stays in the dialog. */
export function DeleteCategoryModal({ category, onClose }: { category: ViolationCategory | null; onClose: () => void }) {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const remove = useDeleteCategory();
  const [conflict, setConflict] = useState<string | null>(null);
  useEffect(() => setConflict(null), [category]);
  return (
    <Modal opened={!!category} onClose={onClose} title={t('categories.deleteDialog.title')}>
      {category && (
        <Stack gap="md">
          <Text>{t('categories.deleteDialog.confirm', { name: category.name })}</Text>
          <Text size="sm" c="dimmed">
            {t('categories.deleteDialog.explain')}
          </Text>
          {conflict && (
            <Alert color="orange" icon={<IconAlertCircle />} role="alert" data-testid="delete-conflict">
              {conflict}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button
              color="red"
              disabled={!!conflict}
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(category.id, {
                  onSuccess: () => {
                    notifySuccess(t('categories.deleted', { name: category.name }));
                    onClose();
                  },
                  onError: (err) => {
                    if (isApiError(err) && err.status === 409) setConflict(errorMessage(err, tc));
                    else notifyError(err, tc);
                  },
                })
              }
            >
              {t('categories.deleteDialog.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
