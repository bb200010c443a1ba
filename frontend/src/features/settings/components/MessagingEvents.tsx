import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UseFormReturnType } from '@mantine/form';
import { Alert, Button, Card, Group, Loader, NumberInput, Paper, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { EVENTS, type ParentEvent } from '@/features/parent-messages/api';
import { StudentSearch } from '@/features/parent-messages/components/StudentFilter';
import { formatPhone } from '@/features/parent-messages/display';
import { useMessagingPreview } from '@/features/parent-messages/hooks';
import { insertPlaceholder, unknownPlaceholders, type MessagingFormValues } from '@/features/parent-messages/settingsForm';
import { LetterSendSettings } from './LetterSendSettings';

/** Per event: its switch, its template with clickable placeholders, and a preview with a real student. */
export function MessagingEvents({ form, placeholders }: { form: UseFormReturnType<MessagingFormValues>; placeholders: string[] }) {
  const { t } = useTranslation('settings');
  const [studentId, setStudentId] = useState<number | null>(null);
  return (
    <Stack gap="md">
      <div>
        <Title order={3} size="h5">
          {t('messaging.events.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('messaging.events.description')}
        </Text>
      </div>
      <StudentSearch
        label={t('messaging.preview.student')}
        description={t('messaging.preview.studentHint')}
        value={studentId}
        onChange={(s) => setStudentId(s?.id ?? null)}
        testId="msg-preview-student"
      />
      {EVENTS.map((e) => (
        <EventCard key={e} event={e} form={form} placeholders={placeholders} studentId={studentId} />
      ))}
    </Stack>
  );
}

function EventCard({
  event,
  form,
  placeholders,
  studentId,
}: {
  event: ParentEvent;
  form: UseFormReturnType<MessagingFormValues>;
  placeholders: string[];
  studentId: number | null;
}) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const ref = useRef<HTMLTextAreaElement>(null);
  const v = form.getValues().events[event];
  const path = `events.${event}` as const;
  const unknown = unknownPlaceholders(v.template, placeholders);

  const insert = (name: string) => {
    const el = ref.current;
    const r = insertPlaceholder(form.getValues().events[event].template, name, el?.selectionStart, el?.selectionEnd);
    form.setFieldValue(`${path}.template`, r.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(r.caret, r.caret);
    });
  };

  const [template] = useDebouncedValue(v.template, 400);
  const preview = useMessagingPreview(v.enabled && studentId ? { event, template, student_id: studentId } : null);

  return (
    <Card withBorder padding="md" data-testid={`msg-event-${event}`}>
      <Stack gap="sm">
        <Switch
          label={t(`messaging.events.${event}.label`)}
          description={t(`messaging.events.${event}.hint`)}
          {...form.getInputProps(`${path}.enabled`, { type: 'checkbox' })}
          data-testid={`msg-event-${event}-enabled`}
        />
        {v.enabled && (
          <>
            {event === 'violation' && (
              <Group gap="md" align="flex-end" wrap="wrap">
                <NumberInput
                  label={t('messaging.events.violation.minPoints')}
                  description={t('messaging.events.violation.minPointsHint')}
                  min={0}
                  max={1000}
                  allowDecimal={false}
                  clampBehavior="none"
                  w={260}
                  {...form.getInputProps(`${path}.min_points`)}
                  data-testid="msg-min-points"
                />
                <Switch
                  label={t('messaging.events.violation.automatic')}
                  description={t('messaging.events.violation.automaticHint')}
                  style={{ flex: '1 1 260px' }}
                  {...form.getInputProps(`${path}.include_automatic`, { type: 'checkbox' })}
                  data-testid="msg-include-automatic"
                />
                {v.include_automatic && (
                  <NumberInput
                    label={t('messaging.events.violation.settle')}
                    description={t('messaging.events.violation.settleHint')}
                    min={1}
                    max={1440}
                    allowDecimal={false}
                    clampBehavior="none"
                    w={260}
                    {...form.getInputProps(`${path}.settle_minutes`)}
                    data-testid="msg-settle-minutes"
                  />
                )}
              </Group>
            )}
            {event === 'warning_letter' && <LetterSendSettings form={form} />}
            <Textarea
              ref={ref}
              label={t('messaging.events.template')}
              autosize
              minRows={4}
              maxLength={1000}
              {...form.getInputProps(`${path}.template`)}
              data-testid={`msg-template-${event}`}
            />
            <div>
              <Text size="xs" c="dimmed" mb={4} id={`msg-ph-${event}`}>
                {t('messaging.events.placeholders')}
              </Text>
              <Group gap={6} wrap="wrap" role="group" aria-labelledby={`msg-ph-${event}`}>
                {placeholders.map((p) => (
                  <Button
                    key={p}
                    size="compact-xs"
                    variant="light"
                    color="gray"
                    ff="monospace"
                    style={{ textTransform: 'none' }}
                    onClick={() => insert(p)}
                    aria-label={t('messaging.events.insert', { name: `{${p}}` })}
                    data-testid={`msg-ph-${event}-${p}`}
                  >
                    {`{${p}}`}
                  </Button>
                ))}
              </Group>
            </div>
            {unknown.length > 0 && (
              <Text size="xs" c="red.9" data-testid={`msg-unknown-${event}`}>
                {t('messaging.events.unknown', { names: unknown.map((n) => `{${n}}`).join(', ') })}
              </Text>
            )}
            {studentId && (
              <div data-testid={`msg-preview-${event}`}>
                <Text size="sm" c="dimmed" fw={500} mb={4}>
                  {t('messaging.preview.title')}
                </Text>
                {preview.isError ? (
                  <Alert color="red" icon={<IconAlertTriangle />}>
                    {errorMessage(preview.error, tc)}
                  </Alert>
                ) : !preview.data ? (
                  <Loader size="sm" aria-label={tc('loading')} />
                ) : (
                  <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
                    <Text size="xs" c="dimmed" mb={4}>
                      {preview.data.phone
                        ? t('messaging.preview.to', { name: preview.data.student_name, phone: formatPhone(preview.data.phone, false) })
                        : t('messaging.preview.noPhone', { name: preview.data.student_name })}
                    </Text>
                    {preview.data.phone_issue && (
                      <Text size="xs" c="red.9" mb={4}>
                        {preview.data.phone_issue}
                      </Text>
                    )}
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid={`msg-preview-text-${event}`}>
                      {preview.data.text}
                    </Text>
                  </Paper>
                )}
              </div>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
