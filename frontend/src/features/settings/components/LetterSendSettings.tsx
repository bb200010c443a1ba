import { useTranslation } from 'react-i18next';
import type { UseFormReturnType } from '@mantine/form';
import { SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import type { MessagingFormValues } from '@/features/parent-messages/settingsForm';

/**
 * A letter's message: when it goes (a counselor marks the letter sent, or printing it does) and
 * the one correction after a letter withdrawn once its message went out. A rule drafting or
 * raising a letter never messages the parent.
 */
export function LetterSendSettings({ form }: { form: UseFormReturnType<MessagingFormValues> }) {
  const { t } = useTranslation('settings');
  const path = 'events.warning_letter' as const;
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500} id="msg-send-on-label">
          {t('messaging.events.warning_letter.sendOn')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('messaging.events.warning_letter.sendOnHint')}
        </Text>
      </div>
      <SegmentedControl
        aria-labelledby="msg-send-on-label"
        data={[
          { value: 'sent', label: t('messaging.events.warning_letter.onSent') },
          { value: 'printed', label: t('messaging.events.warning_letter.onPrinted') },
        ]}
        {...form.getInputProps(`${path}.send_on`)}
        data-testid="msg-send-on"
      />
      <Textarea
        label={t('messaging.events.warning_letter.correction')}
        description={t('messaging.events.warning_letter.correctionHint')}
        autosize
        minRows={3}
        maxLength={1000}
        {...form.getInputProps(`${path}.correction_template`)}
        data-testid="msg-correction-template"
      />
    </Stack>
  );
}
