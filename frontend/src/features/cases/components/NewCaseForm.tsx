import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { CASE_SOURCES, type CaseSource } from '../api';
import { useCaseCategories, useCreateCase } from '../hooks';
import { paths } from '../paths';

interface Values {
  title: string;
  occurred_at: string;
  place: string;
  description: string;
  category_id: string | null;
  source: CaseSource;
}

/** "Buka kasus": the facts of the case; people, team and stages are added on its page. */
export function NewCaseForm({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const categories = useCaseCategories();
  const create = useCreateCase();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { title: '', occurred_at: todayInJakarta().format('YYYY-MM-DDTHH:mm'), place: '', description: '', category_id: null, source: 'staff_finding' },
    validate: {
      title: (v) => (v.trim() ? null : tc('validation.required')),
      occurred_at: (v) => (v ? null : tc('validation.required')),
      category_id: (v) => (v ? null : tc('validation.required')),
    },
  });
  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };
  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    try {
      const c = await create.mutateAsync({ ...v, category_id: Number(v.category_id), participants: [], team: [] });
      notifySuccess(t('created'));
      close();
      void navigate(paths.of(c.id));
    } catch (err) {
      setFormError(applyServerErrors(form, err, tc));
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={t('new')} size="lg" centered closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {formError && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
              {formError}
            </Alert>
          )}
          <TextInput label={t('fields.title')} description={t('titleHint')} required maxLength={200} {...form.getInputProps('title')} data-testid="case-title" />
          <Select
            label={t('fields.category')}
            required
            data={(categories.data ?? []).filter((c) => c.active).map((c) => ({ value: String(c.id), label: c.name }))}
            {...form.getInputProps('category_id')}
            data-testid="case-category"
          />
          <TextInput type="datetime-local" label={t('fields.occurredAt')} required {...form.getInputProps('occurred_at')} data-testid="case-occurred" />
          <TextInput label={t('fields.place')} maxLength={200} {...form.getInputProps('place')} data-testid="case-place" />
          <Select
            label={t('fields.source')}
            data={CASE_SOURCES.map((s) => ({ value: s, label: t(`source.${s}`) }))}
            allowDeselect={false}
            {...form.getInputProps('source')}
            data-testid="case-source"
          />
          <Textarea label={t('fields.description')} description={t('descriptionHint')} autosize minRows={3} maxLength={10000} {...form.getInputProps('description')} data-testid="case-description" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="case-save">
              {t('open')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
