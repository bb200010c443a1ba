import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import type { SchoolClass } from '@/features/students/types';
import { useHomeroomTeachers, useSetHomeroomTeacher } from '../hooks';
import { teacherOptions } from '../teachers';

/** Assign (or release) the homeroom teacher of a class; the server's 422 shows at the field. */
export function AssignTeacherModal({ cls, classes, onClose }: { cls: SchoolClass | null; classes: readonly SchoolClass[]; onClose: () => void }) {
  const { t } = useTranslation('classes');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canList = can('users.view');
  const teachers = useHomeroomTeachers(canList && cls !== null);
  const save = useSetHomeroomTeacher();
  const [value, setValue] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!cls) return;
    setValue(cls.homeroom_teacher ? String(cls.homeroom_teacher.id) : null);
    setFieldError(null);
    setError(null);
  }, [cls]);

  if (!cls) return <Modal opened={false} onClose={onClose} />;
  const options = teacherOptions(teachers.data?.data ?? [], classes, cls);
  // The current teacher stays choosable even if the list does not hold them (e.g. no users.view).
  if (cls.homeroom_teacher && !options.some((o) => o.value === String(cls.homeroom_teacher!.id))) {
    options.unshift({ value: String(cls.homeroom_teacher.id), label: `${cls.homeroom_teacher.name} (${cls.homeroom_teacher.username})`, otherClass: null });
  }
  const data = options.map((o) => ({ value: o.value, label: o.otherClass ? `${o.label} — ${t('assign.leads', { name: o.otherClass })}` : o.label }));
  const unchanged = value === (cls.homeroom_teacher ? String(cls.homeroom_teacher.id) : null);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setFieldError(null);
    setError(null);
    save.mutate(
      { id: cls.id, teacherId: value ? Number(value) : null },
      {
        onSuccess: (c) => {
          notifySuccess(c.homeroom_teacher ? t('assign.saved', { class: c.name, name: c.homeroom_teacher.name }) : t('assign.released', { class: c.name }));
          onClose();
        },
        onError: (err) => {
          const msg = isApiError(err) ? err.fields.homeroom_teacher_id : undefined;
          if (msg) setFieldError(msg);
          else setError(errorMessage(err, tc));
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('assign.title', { name: cls.name })} size="md">
      <form onSubmit={submit} noValidate aria-label={t('assign.title', { name: cls.name })}>
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {error}
            </Alert>
          )}
          <Select
            label={t('assign.teacher')}
            placeholder={canList ? t('assign.placeholder') : undefined}
            description={canList ? t('assign.hint') : undefined}
            data={data}
            value={value}
            onChange={(v) => {
              setValue(v);
              setFieldError(null);
            }}
            searchable
            clearable
            disabled={!canList}
            nothingFoundMessage={t('assign.nothingFound')}
            error={fieldError}
            // Not autofocused: a searchable Select opens its list on focus, which then covered the
            // buttons before anyone asked for it. Focusing it (click or Tab) selects the shown
            // name, so typing searches afresh instead of landing in the middle of that name.
            onFocus={(e) => e.currentTarget.select()}
            onClick={(e) => e.currentTarget.select()}
            comboboxProps={{ withinPortal: true }}
            data-testid="teacher-select"
          />
          {!canList && (
            <Alert color="gray" icon={<IconInfoCircle />} data-testid="teacher-select-hint">
              {t('assign.noUsersView')}
            </Alert>
          )}
          {canList && value === null && cls.homeroom_teacher && (
            <Text size="sm" c="dimmed">
              {t('assign.willRelease', { name: cls.homeroom_teacher.name })}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!canList || unchanged}>
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
