import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { ROLES, type Role } from '@/api/types';
import type { UserRow } from '../api';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { MIN_PASSWORD_LENGTH } from '@/lib/passwords';
import { useCreateUser, useUpdateUser } from '../hooks';

interface Values {
  username: string;
  name: string;
  role: Role | '';
  email: string;
  phone: string;
  nip: string;
  password: string;
  active: boolean;
  release_class: boolean;
}

const empty: Values = { username: '', name: '', role: '', email: '', phone: '', nip: '', password: '', active: true, release_class: false };

/** A NIP as typed ("19800101 200501 2 003") without its grouping. */
const nipDigits = (v: string) => v.replace(/[\s.-]/g, '');

/** Create (user undefined) or edit a user; the server's field errors land at the fields. */
export function UserFormModal({ opened, user, selfId, onClose }: { opened: boolean; user?: UserRow; selfId?: number; onClose: () => void }) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [error, setError] = useState<string | null>(null);
  const editing = !!user;
  const isSelf = editing && user.id === selfId;

  const form = useForm<Values>({
    initialValues: empty,
    validate: {
      username: (v) => (v.trim() ? null : tc('validation.required')),
      name: (v) => (v.trim() ? null : tc('validation.required')),
      role: (v) => (v ? null : tc('validation.required')),
      nip: (v) => (nipDigits(v) === '' || /^\d{18}$/.test(nipDigits(v)) ? null : t('form.nipHint')),
      password: (v) =>
        editing ? null : v.length >= MIN_PASSWORD_LENGTH ? null : tc('validation.passwordMin', { min: MIN_PASSWORD_LENGTH }),
    },
  });

  useEffect(() => {
    if (!opened) return;
    setError(null);
    const values: Values = user
      ? { username: user.username, name: user.name, role: user.role, email: user.email, phone: user.phone, nip: user.nip ?? '', password: '', active: user.active, release_class: false }
      : empty;
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    // reset only when the modal opens
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [opened, user]);

  // A homeroom teacher given another role or deactivated would leave their class pointing at
  // them: say so, and offer to release the class (the server refuses otherwise).
  const cls = user?.homeroom_class;
  const values = form.getValues();
  const leavesClass = !!cls && ((values.role !== '' && values.role !== 'wali_kelas') || !values.active);

  const submit = (v: Values) => {
    setError(null);
    const fail = (err: unknown) => setError(applyServerErrors(form, err, tc));
    const base = { username: v.username.trim(), name: v.name.trim(), role: v.role as Role, email: v.email.trim(), phone: v.phone.trim(), nip: nipDigits(v.nip) };
    if (user) {
      update.mutate(
        { id: user.id, input: { ...base, active: v.active, ...(leavesClass ? { release_class: v.release_class } : {}) } },
        {
          onSuccess: (u) => {
            notifySuccess(t('saved', { name: u.name }));
            onClose();
          },
          onError: fail,
        },
      );
    } else {
      create.mutate(
        { ...base, password: v.password },
        {
          onSuccess: (u) => {
            notifySuccess(t('created', { name: u.name }));
            onClose();
          },
          onError: fail,
        },
      );
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? t('form.editTitle') : t('form.createTitle')} size="lg" fullScreen={false}>
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={editing ? t('form.editTitle') : t('form.createTitle')}>
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="form-error">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('fields.username')}
            description={t('form.usernameHint')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
            data-autofocus
            {...form.getInputProps('username')}
          />
          <TextInput label={t('fields.name')} required {...form.getInputProps('name')} />
          <Select
            label={t('fields.role')}
            required
            disabled={isSelf}
            description={isSelf ? t('form.ownRole') : undefined}
            data={ROLES.map((r) => ({ value: r, label: tc(`role.${r}`) }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('role')}
          />
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label={t('fields.email')} type="email" autoComplete="off" miw={200} {...form.getInputProps('email')} />
            <TextInput label={t('fields.phone')} type="tel" autoComplete="off" miw={200} {...form.getInputProps('phone')} />
          </Group>
          <TextInput
            label={t('fields.nip')}
            description={t('form.nipHint')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={30}
            {...form.getInputProps('nip')}
            data-testid="user-nip"
          />
          {!editing && (
            <PasswordInput
              label={t('fields.password')}
              description={tc('validation.passwordMin', { min: MIN_PASSWORD_LENGTH })}
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
          )}
          {editing && (
            <Switch
              label={t('fields.active')}
              description={isSelf ? t('form.ownActive') : t('form.activeHint')}
              disabled={isSelf}
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
          )}
          {leavesClass && cls && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle />} data-testid="homeroom-warning">
              <Stack gap="xs">
                <Text size="sm">{t('homeroom.editWarning', { name: user?.name, class: cls.name })}</Text>
                <Checkbox
                  label={t('homeroom.release', { class: cls.name })}
                  data-testid="release-class"
                  {...form.getInputProps('release_class', { type: 'checkbox' })}
                />
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
