import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { StudentPicker } from '@/features/violations/components/StudentPicker';
import type { Student } from '@/features/students/types';
import { CASE_ROLES, type CaseRole, type ParticipantInput } from '../api';
import { useAddParticipant, useTeamOptions } from '../hooks';

type Kind = ParticipantInput['kind'];

interface Values {
  kind: Kind;
  student: Student | null;
  role: CaseRole | null;
  user_id: string | null;
  name: string;
  relation: string;
}

/** "Tambah pihak": a student in a role, a staff member or an outsider with their relation. */
export function AddParticipant({ caseId, opened, onClose }: { caseId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const add = useAddParticipant(caseId);
  const users = useTeamOptions(opened);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { kind: 'student', student: null, role: null, user_id: null, name: '', relation: '' },
    validate: {
      student: (v, all) => (all.kind === 'student' && !v ? tc('validation.required') : null),
      role: (v, all) => (all.kind === 'student' && !v ? tc('validation.required') : null),
      user_id: (v, all) => (all.kind === 'staff' && !v ? tc('validation.required') : null),
      name: (v, all) => (all.kind === 'outsider' && !v.trim() ? tc('validation.required') : null),
      relation: (v, all) => (all.kind === 'outsider' && !v.trim() ? tc('validation.required') : null),
    },
  });
  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };
  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    const input: ParticipantInput =
      v.kind === 'student'
        ? { kind: 'student', student_id: v.student!.id, role: v.role! }
        : v.kind === 'staff'
          ? { kind: 'staff', user_id: Number(v.user_id), relation: v.relation }
          : { kind: 'outsider', name: v.name, relation: v.relation };
    try {
      await add.mutateAsync(input);
      notifySuccess(t('people.added'));
      close();
    } catch (err) {
      setFormError(applyServerErrors(form, err, tc));
    }
  });
  const kind = form.values.kind;
  return (
    <Modal opened={opened} onClose={close} title={t('people.add')} centered closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {formError && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />}>
              {formError}
            </Alert>
          )}
          <SegmentedControl
            fullWidth
            data={(['student', 'staff', 'outsider'] as const).map((k) => ({ value: k, label: t(`people.kind.${k}`) }))}
            {...form.getInputProps('kind')}
            data-testid="participant-kind"
          />
          {kind === 'student' && (
            <>
              <StudentPicker value={form.values.student} onChange={(s) => form.setFieldValue('student', s)} error={form.errors.student ?? form.errors.student_id} required />
              <Select
                label={t('people.role')}
                required
                data={CASE_ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))}
                {...form.getInputProps('role')}
                data-testid="participant-role"
              />
            </>
          )}
          {kind === 'staff' && (
            <Select
              label={t('people.user')}
              required
              searchable
              data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
              {...form.getInputProps('user_id')}
              data-testid="participant-user"
            />
          )}
          {kind === 'outsider' && <TextInput label={t('people.name')} required maxLength={150} {...form.getInputProps('name')} data-testid="participant-name" />}
          {kind !== 'student' && (
            <TextInput
              label={t('people.relation')}
              placeholder={t('people.relationHint')}
              required={kind === 'outsider'}
              maxLength={100}
              {...form.getInputProps('relation')}
              data-testid="participant-relation"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={add.isPending} data-testid="participant-save">
              {t('people.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
