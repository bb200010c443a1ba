import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { ActionIcon, Alert, Autocomplete, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertCircle, IconCalendar, IconPlus, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { isApiError } from '@/api/errors';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { useAddHandling, useAddSharedHandling, useHandlingTypeList, useParticipantUsers } from '../hooks';
import { participantsToSend, ROLE_KEYS, type ParticipantRow, type RoleKey } from '../participants';
import { refusedIds } from '../selection';

interface Values {
  handling_type_id: string | null;
  handled_on: string | null;
  notes: string;
  follow_up_on: string | null;
  participants: ParticipantRow[];
}

/** Several violations at once (the list's "Tangani"): one shared record, no follow-up date. */
export interface SharedTarget {
  ids: readonly number[];
  students: number;
  /** The server refused these (gone, out of scope, resolved meanwhile): the list lets them go. */
  onRefused: (ids: number[]) => void;
}

/**
 * "Tambah penanganan": a handling record with its participants (users or free names, each with a role),
 * for one violation, or for several at once (`shared`) as one record linked to all of them.
 */
export function HandlingForm({
  violationId = 0,
  shared,
  opened,
  onClose,
  onDone,
}: {
  violationId?: number;
  shared?: SharedTarget;
  opened: boolean;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const types = useHandlingTypeList(opened);
  const users = useParticipantUsers('', opened && can('users.view'));
  const addOne = useAddHandling();
  const addShared = useAddSharedHandling();
  const pending = addOne.isPending || addShared.isPending;
  const [formError, setFormError] = useState<string | null>(null);
  const roleLabel = (k: RoleKey) => t(`roles.${k}`);
  const today = todayInJakarta().format('YYYY-MM-DD');

  const form = useForm<Values>({
    initialValues: { handling_type_id: null, handled_on: today, notes: '', follow_up_on: null, participants: [{ name: '', role: '' }] },
    validate: {
      handling_type_id: (v) => (v ? null : tc('validation.required')),
      handled_on: (v) => (v ? null : tc('validation.required')),
      follow_up_on: (v, all) => (v && all.handled_on && v < all.handled_on ? t('handling.followUpBefore') : null),
    },
  });

  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };

  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    const common = {
      handling_type_id: Number(v.handling_type_id),
      handled_on: v.handled_on!,
      notes: v.notes.trim(),
      participants: participantsToSend(v.participants, users.data?.data ?? [], roleLabel),
    };
    const ids = shared ? [...shared.ids] : [];
    try {
      if (shared) {
        await addShared.mutateAsync({ ...common, violation_ids: ids });
        notifySuccess(t('selection.handled', { count: ids.length }));
      } else {
        await addOne.mutateAsync({ id: violationId, input: { ...common, follow_up_on: v.follow_up_on || null } });
        notifySuccess(t('handling.added'));
      }
      close();
      onDone?.();
    } catch (err) {
      const refused = shared && isApiError(err) ? refusedIds(err.fields, ids) : [];
      if (shared && refused.length > 0) {
        // Named by index only; the list lets them go and the rest can be sent again.
        shared.onRefused(refused);
        setFormError(`${(err as Error).message} ${t('selection.refused', { count: refused.length })}`);
        return;
      }
      setFormError(applyServerErrors(form, err, tc));
    }
  });

  const typeOptions = (types.data?.data ?? []).filter((h) => h.active).map((h) => ({ value: String(h.id), label: h.name }));
  const userNames = [...new Set((users.data?.data ?? []).map((u) => u.name))];

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={shared ? t('selection.title', { count: shared.ids.length }) : t('handling.add')}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {shared && (
            <Text size="sm" c="dimmed" data-testid="shared-summary">
              {t('selection.summary', { count: shared.ids.length, students: t('selection.students', { count: shared.students }) })}
            </Text>
          )}
          {formError && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
              {formError}
            </Alert>
          )}
          <Select label={t('handling.type')} required data={typeOptions} {...form.getInputProps('handling_type_id')} data-testid="handling-type" />
          <Group grow gap="sm" wrap="wrap" align="flex-start">
            <DatePickerInput
              label={t('handling.date')}
              required
              valueFormat="D MMMM YYYY"
              leftSection={<IconCalendar size={16} aria-hidden />}
              maxDate={today}
              {...form.getInputProps('handled_on')}
              style={{ minWidth: 180 }}
            />
            {!shared && (
              <DatePickerInput
                label={t('handling.followUp')}
                description={t('handling.followUpHint')}
                clearable
                clearButtonProps={{ 'aria-label': t('filters.clear') }}
                valueFormat="D MMMM YYYY"
                leftSection={<IconCalendar size={16} aria-hidden />}
                minDate={form.values.handled_on ?? undefined}
                {...form.getInputProps('follow_up_on')}
                style={{ minWidth: 180 }}
              />
            )}
          </Group>
          <Textarea label={t('handling.notes')} autosize minRows={3} maxLength={5000} {...form.getInputProps('notes')} data-testid="handling-notes" />
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {t('handling.participants')}
            </Text>
            <Text size="xs" c="dimmed">
              {can('users.view') ? t('handling.participantsHintUsers') : t('handling.participantsHint')}
            </Text>
            {form.values.participants.map((_, i) => (
              <Group key={i} gap="xs" align="flex-end" wrap="nowrap" data-testid={`participant-${i}`}>
                <Autocomplete
                  label={t('handling.participantName', { n: i + 1 })}
                  data={userNames}
                  maxLength={150}
                  {...form.getInputProps(`participants.${i}.name`)}
                  style={{ flex: 1, minWidth: 0 }}
                />
                <Autocomplete
                  label={t('handling.participantRole', { n: i + 1 })}
                  data={ROLE_KEYS.map(roleLabel)}
                  maxLength={50}
                  {...form.getInputProps(`participants.${i}.role`)}
                  style={{ flex: 1, minWidth: 0 }}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size={44}
                  aria-label={t('handling.removeParticipant', { n: i + 1 })}
                  onClick={() => form.removeListItem('participants', i)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
            <Button
              variant="subtle"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => form.insertListItem('participants', { name: '', role: '' })}
              style={{ alignSelf: 'flex-start' }}
              data-testid="add-participant"
            >
              {t('handling.addParticipant')}
            </Button>
          </Stack>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={pending} disabled={!!shared && shared.ids.length === 0} data-testid="handling-save">
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
