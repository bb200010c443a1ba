import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { DatePickerInput, TimePicker } from '@mantine/dates';
import { IconCalendar, IconPencil } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { groupByCategory } from '@/features/violation-types/grouping';
import { useFormatNumber } from '@/lib/numbers';
import { correctionPayload, correctionValues, type CorrectionValues } from '../correct';
import { useCorrectViolation, useTypeList } from '../hooks';
import { nowInJakarta } from '../record';
import type { Violation } from '../types';

/**
 * "Perbaiki": corrects a violation's type, time, place, sanction or description in place
 * (PATCH /violations/{id}) for whoever may record. The points follow a new type's; letters and
 * the point history follow on the server. An automatic violation (alpha, late) is corrected
 * through the class's attendance: it says so instead.
 */
export function CorrectViolation({ violation: v }: { violation: Violation }) {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const [open, setOpen] = useState(false);
  if (!can('violations.record')) return null;
  if (v.source === 'attendance') {
    return (
      <Text size="xs" c="dimmed" maw={260} data-testid="correct-automatic">
        {t('correct.automatic')}
      </Text>
    );
  }
  return (
    <>
      <Button variant="default" leftSection={<IconPencil size={18} aria-hidden />} onClick={() => setOpen(true)} data-testid="correct-violation">
        {t('correct.action')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('correct.title')} size="lg" centered data-testid="correct-dialog">
        {open && <CorrectForm v={v} onDone={() => setOpen(false)} tc={tc} />}
      </Modal>
    </>
  );
}

function CorrectForm({ v, onDone, tc }: { v: Violation; onDone: () => void; tc: ReturnType<typeof useTranslation>['t'] }) {
  const { t } = useTranslation('violations');
  const num = useFormatNumber();
  const types = useTypeList('true');
  const correct = useCorrectViolation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CorrectionValues>({
    initialValues: correctionValues(v),
    validate: {
      type_id: (x) => (x ? null : tc('validation.required')),
      date: (x) => (x ? null : tc('validation.required')),
      time: (x) => (x ? null : tc('validation.required')),
    },
  });
  // The types a person may record, and the violation's own (kept even if deactivated since).
  const data = useMemo(() => {
    const list = (types.data?.data ?? []).filter((ty) => (ty.active && !ty.is_system) || ty.id === v.type_id);
    return groupByCategory(list, types.data?.categories ?? []).map((g) => ({
      group: g.category.name,
      items: g.types.map((ty) => ({ value: String(ty.id), label: t('form.typeOption', { name: ty.name, n: num(ty.points) }) })),
    }));
  }, [types.data, v.type_id, t, num]);

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const input = correctionPayload(v, values);
    if (Object.keys(input).length === 0) {
      onDone();
      return;
    }
    try {
      const res = await correct.mutateAsync({ id: v.id, input });
      const letters = res.letters.map((l) => t(`correct.letter.${l.change}`, { name: l.name })).join(' ');
      notifySuccess([t('correct.done', { n: num(res.violation.points) }), letters].filter(Boolean).join(' '));
      onDone();
    } catch (err) {
      // The server's field names: type_id, occurred_at (at the date), location, sanction, description.
      const fe = (err as { fields?: Record<string, string> }).fields;
      if (fe?.occurred_at) form.setFieldError('date', fe.occurred_at);
      setFormError(applyServerErrors(form, err, tc));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('correct.hint')}
        </Text>
        {formError && (
          <Alert color="red" data-testid="correct-error">
            {formError}
          </Alert>
        )}
        <Select label={t('form.types')} searchable required data={data} {...form.getInputProps('type_id')} data-testid="correct-type" />
        <SimpleGrid cols={2} spacing="sm">
          <DatePickerInput
            label={t('form.date')}
            leftSection={<IconCalendar size={16} aria-hidden />}
            valueFormat="D MMM YYYY"
            maxDate={nowInJakarta().date}
            required
            {...form.getInputProps('date')}
            data-testid="correct-date"
          />
          <TimePicker label={t('form.time')} format="24h" required {...form.getInputProps('time')} data-testid="correct-time" />
        </SimpleGrid>
        <TextInput label={t('form.location')} maxLength={200} {...form.getInputProps('location')} />
        <Textarea label={t('form.sanction')} autosize minRows={2} maxLength={1000} {...form.getInputProps('sanction')} />
        <Textarea label={t('form.description')} autosize minRows={3} maxLength={5000} {...form.getInputProps('description')} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={correct.isPending} data-testid="correct-submit">
            {t('correct.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
