import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Anchor, Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconBrandWhatsapp, IconDatabaseImport, IconPencil, IconPhone } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { applyServerErrors, notifyError, notifySuccess } from '@/components/serverErrors';
import { differingSyncedContact } from '../contact';
import { useEditParentContact } from '../hooks';
import { phoneLinks } from '../phone';
import type { Student } from '../types';

const MAX_NAME = 150;

function Field({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  const empty = value === null || value === undefined || value === '';
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ overflowWrap: 'anywhere' }} component="div">
        {empty ? '—' : value}
      </Text>
    </Stack>
  );
}

/** The parent's number as tap-to-call, and a WhatsApp link when WhatsApp can reach it. */
function ParentPhone({ number, whatsapp }: { number: string; whatsapp: boolean }) {
  const { t } = useTranslation('students');
  const links = phoneLinks(number);
  if (!links) return <>{number}</>;
  return (
    <Group gap="xs" wrap="wrap" component="span">
      <Anchor href={links.tel} size="sm" fw={500} aria-label={t('phone.call', { number })}>
        <Group gap={4} component="span" wrap="nowrap">
          <IconPhone size={14} aria-hidden />
          {number}
        </Group>
      </Anchor>
      {whatsapp && links.whatsapp && (
        <Anchor href={links.whatsapp} target="_blank" rel="noopener noreferrer" size="sm" c="teal.9" aria-label={t('phone.whatsapp', { number })}>
          <Group gap={4} component="span" wrap="nowrap">
            <IconBrandWhatsapp size={14} aria-hidden />
            WhatsApp
          </Group>
        </Anchor>
      )}
    </Group>
  );
}

interface Values {
  parent_name: string;
  parent_phone: string;
}

function EditContactModal({ student, opened, onClose }: { student: Student; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('students');
  const { t: tc } = useTranslation();
  const edit = useEditParentContact(student.id);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { parent_name: '', parent_phone: '' },
    validate: { parent_name: (v) => (v.trim().length > MAX_NAME ? t('contact.nameTooLong', { max: MAX_NAME }) : null) },
  });

  useEffect(() => {
    if (!opened) return;
    setError(null);
    const v = { parent_name: student.parent_name, parent_phone: student.parent_phone };
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // reset only when the dialog opens
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [opened]);

  const submit = (v: Values) => {
    setError(null);
    edit.mutate(
      { parent_name: v.parent_name.trim(), parent_phone: v.parent_phone.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('contact.saved'));
          onClose();
        },
        onError: (err) => setError(applyServerErrors(form, err, tc)),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('contact.editTitle')}>
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('contact.editTitle')} data-testid="parent-contact-form">
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="form-error">
              {error}
            </Alert>
          )}
          <TextInput label={t('fields.parentName')} maxLength={MAX_NAME} data-autofocus autoComplete="off" {...form.getInputProps('parent_name')} />
          <TextInput
            label={t('contact.phoneLabel')}
            description={t('contact.phoneHint')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            maxLength={30}
            {...form.getInputProps('parent_phone')}
          />
          <Text size="xs" c="dimmed">
            {t('contact.keptOnSync')}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={edit.isPending}>
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The parent's name and phone on the student page: tap-to-call and WhatsApp links, a badge
 * when WhatsApp cannot reach the number, an edit dialog for holders of students.edit_contact,
 * and — after a staff edit — what student affairs says, with a way back to it.
 */
export function ParentContactCard({ student }: { student: Student }) {
  const { t } = useTranslation('students');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canEdit = can('students.edit_contact');
  const [editing, setEditing] = useState(false);
  const handBack = useEditParentContact(student.id);
  const issue = student.parent_phone_issue;
  const synced = differingSyncedContact(student);

  const restoreSynced = () =>
    handBack.mutate(
      { parent_contact_source: 'sync' },
      {
        onSuccess: () => notifySuccess(t('contact.handedBack')),
        onError: (err) => notifyError(err, tc),
      },
    );

  return (
    <Card withBorder padding="md" data-testid="parent-contact-card">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h5">
          {t('sections.parent')}
        </Title>
        {canEdit && (
          <Button size="xs" variant="light" leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)} data-testid="parent-contact-edit">
            {t('contact.edit')}
          </Button>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <Field label={t('fields.parentName')} value={student.parent_name} testId="parent-name" />
        <Field
          label={t('fields.parentPhone')}
          value={student.parent_phone && <ParentPhone number={student.parent_phone} whatsapp={issue === ''} />}
          testId="parent-phone"
        />
      </SimpleGrid>
      {issue !== '' && (
        <Group gap="xs" mt="sm" wrap="wrap" data-testid="parent-phone-issue">
          <Badge color={issue === 'missing' ? 'gray' : 'orange'} variant="light" leftSection={<IconBrandWhatsapp size={12} aria-hidden />}>
            {t(`contact.issue.${issue}`)}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('contact.issueExplain')}
          </Text>
        </Group>
      )}
      <Text size="xs" c="dimmed" mt="sm" data-testid="parent-contact-source">
        {student.parent_contact_source === 'staff' ? t('contact.fromStaff') : t('contact.fromSync')}
      </Text>
      {synced && (
        <Alert mt="sm" color="blue" variant="light" icon={<IconDatabaseImport />} data-testid="parent-synced">
          <Stack gap="xs">
            <Text size="sm">
              {t('contact.synced', { name: synced.name || '—', phone: synced.phone || '—' })}
            </Text>
            {canEdit && (
              <Group>
                <Button size="xs" variant="default" onClick={restoreSynced} loading={handBack.isPending} data-testid="parent-use-synced">
                  {t('contact.useSynced')}
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {canEdit && <EditContactModal student={student} opened={editing} onClose={() => setEditing(false)} />}
    </Card>
  );
}
