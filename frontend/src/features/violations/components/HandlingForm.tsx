import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { ActionIcon, Alert, Autocomplete, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertCircle, IconCalendar, IconPlus, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { useAddHandling, useHandlingTypeList, useParticipantUsers } from '../hooks';
import { participantsToSend, ROLE_KEYS, type ParticipantRow, type RoleKey } from '../participants';

interface Values {
  handling_type_id: string | null;
  handled_on: string | null;
  notes: string;
  follow_up_on: string | null;
  participants: ParticipantRow[];
}

/** "Tambah penanganan": a handling record with its participants (users or free names, each with a role). */
export function HandlingForm({ violationId, opened, onClose }: { violationId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const types = useHandlingTypeList(opened);
  const users = useParticipantUsers('', opened && can('users.view'));
  const add = useAddHandling();
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
    try {
      await add.mutateAsync({
        id: violationId,
        input: {
          handling_type_id: Number(v.handling_type_id),
          handled_on: v.handled_on!,
          notes: v.notes.trim(),
          follow_up_on: v.follow_up_on || null,
          participants: participantsToSend(v.participants, users.data?.data ?? [], roleLabel),
        },
      });
      notifySuccess(t('handling.added'));
      close();
    } catch (err) {
      setFormError(applyServerErrors(form, err, tc));
    }
  });

  const typeOptions = (types.data?.data ?? []).filter((h) => h.active).map((h) => ({ value: String(h.id), label: h.name }));
  const userNames = [...new Set((users.data?.data ?? []).map((u) => u.name))];

  return (
    <Modal opened={opened} onClose={close} title={t('handling.add')} size="lg" centered closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
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
            <Button type="submit" loading={add.isPending} data-testid="handling-save">
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
