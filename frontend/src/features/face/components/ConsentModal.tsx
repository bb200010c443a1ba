import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '@mantine/form';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { applyServerErrors, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { CONSENT_METHODS, RELATIONSHIPS, type ConsentMethod, type FaceConsent, type FaceConsentInput, type Relationship } from '../api';
import { useRecordConsent } from '../hooks';

const MAX_NAME = 120;
const MAX_REFERENCE = 200;

/** The form's values: relationship and method are '' until chosen. */
type ConsentValues = Omit<FaceConsentInput, 'relationship' | 'method' | 'reference'> & {
  relationship: Relationship | '';
  method: ConsentMethod | '';
  reference: string;
};

function initial(consent: FaceConsent | null): ConsentValues {
  if (consent) {
    return {
      guardian_name: consent.guardian_name,
      relationship: RELATIONSHIPS.find((r) => r === consent.relationship) ?? '',
      method: CONSENT_METHODS.find((m) => m === consent.method) ?? '',
      given_on: consent.given_on,
      reference: consent.reference,
    };
  }
  return { guardian_name: '', relationship: '', method: '', given_on: todayInJakarta().format('YYYY-MM-DD'), reference: '' };
}

/**
 * The parent's consent (form modal face-consent-dialog): a new record, or a correction of the
 * active one (a PUT while one is active corrects it and keeps the face data). The server's
 * 422 lands at the fields.
 */
export function ConsentModal({ studentId, consent, opened, onClose }: { studentId: number; consent: FaceConsent | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('face');
  const { t: tc } = useTranslation();
  const save = useRecordConsent(studentId);
  const [error, setError] = useState<string | null>(null);
  const today = todayInJakarta().format('YYYY-MM-DD');
  const form = useForm<ConsentValues>({
    initialValues: initial(null),
    validate: {
      guardian_name: (v) => (!v.trim() ? tc('validation.required') : null),
      relationship: (v) => (!v ? tc('validation.required') : null),
      method: (v) => (!v ? tc('validation.required') : null),
      given_on: (v) => (!/^\d{4}-\d{2}-\d{2}$/.test(v) ? tc('validation.required') : v > today ? t('consentForm.future') : null),
    },
  });

  useEffect(() => {
    if (!opened) return;
    setError(null);
    const v = initial(consent);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // reset only when the dialog opens
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [opened]);

  const submit = (v: ConsentValues) => {
    const { relationship, method } = v;
    if (!relationship || !method) return; // the form's validation said so already
    setError(null);
    save.mutate(
      { ...v, relationship, method, guardian_name: v.guardian_name.trim(), reference: v.reference.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('consentForm.saved'));
          onClose();
        },
        onError: (err) => setError(applyServerErrors(form, err, tc)),
      },
    );
  };

  const choose = { value: '', label: t('consentForm.choose'), disabled: true };
  return (
    <Modal opened={opened} onClose={onClose} title={t('consentForm.title')} data-testid="face-consent-dialog">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={t('consentForm.title')}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('consentForm.explain')}
          </Text>
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="face-consent-error">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('consentForm.guardian')}
            maxLength={MAX_NAME}
            autoComplete="off"
            data-autofocus
            withAsterisk
            data-testid="face-consent-guardian"
            {...form.getInputProps('guardian_name')}
          />
          <NativeSelect
            label={t('consentForm.relationship')}
            withAsterisk
            data={[choose, ...RELATIONSHIPS.map((r) => ({ value: r, label: t(`relationship.${r}`) }))]}
            data-testid="face-consent-relationship"
            {...form.getInputProps('relationship')}
          />
          <NativeSelect
            label={t('consentForm.method')}
            withAsterisk
            data={[choose, ...CONSENT_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))]}
            data-testid="face-consent-method"
            {...form.getInputProps('method')}
          />
          <TextInput type="date" label={t('consentForm.givenOn')} max={today} withAsterisk data-testid="face-consent-given-on" {...form.getInputProps('given_on')} />
          <TextInput
            label={t('consentForm.reference')}
            description={t('consentForm.referenceHint')}
            maxLength={MAX_REFERENCE}
            autoComplete="off"
            data-testid="face-consent-reference"
            {...form.getInputProps('reference')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} mih={44}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} mih={44} data-testid="face-consent-save">
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
