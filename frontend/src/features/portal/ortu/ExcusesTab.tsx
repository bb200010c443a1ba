import { useState } from 'react';
import { jakartaDay } from '@/lib/jakartaDay';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Checkbox, Chip, FileInput, Group, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { excusesApi, type ExcuseInput } from '../api';
import { ExcuseSpan } from '../components/PendingExcuses';

const STATUS_COLOURS = { pending: 'yellow', approved: 'teal', refused: 'red' } as const;
const HOURS = Array.from({ length: 10 }, (_, i) => i + 1);

function todayInJakarta(): string {
  return jakartaDay();
}

/** A guardian excuses their child (sakit or izin, days or hours, a photo) and sees the decisions. */
export function ExcusesTab({ childId }: { childId: number }) {
  const { t } = useTranslation('portal');
  const qc = useQueryClient();
  const key = ['portal', 'excuses', childId] as const;
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => excusesApi.forChild(childId, signal) });
  const [kind, setKind] = useState<'sakit' | 'izin'>('sakit');
  const [from, setFrom] = useState(todayInJakarta);
  const [to, setTo] = useState(todayInJakarta);
  const [someHours, setSomeHours] = useState(false);
  const [hours, setHours] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const submit = useMutation({
    mutationFn: () => {
      const input: ExcuseInput = { kind, from, to: someHours ? from : to, reason };
      if (someHours) input.lesson_hours = hours.map(Number).sort((a, b) => a - b);
      return excusesApi.submit(childId, input, photos);
    },
    onSuccess: () => {
      notifySuccess(t('excuses.sent'));
      setReason('');
      setPhotos([]);
      setHours([]);
      setError(null);
      setFields({});
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (err) => {
      if (isApiError(err) && err.hasFieldErrors) setFields(err.fields);
      setError(errorMessage(err, t));
    },
  });
  return (
    <Stack>
      <Card withBorder radius="md">
        <form onSubmit={(e) => { e.preventDefault(); submit.mutate(); }}>
          <Stack gap="sm">
            {error && <Alert color="red">{error}</Alert>}
            <SegmentedControl
              value={kind}
              onChange={(v) => setKind(v as 'sakit' | 'izin')}
              data={[
                { value: 'sakit', label: t('excuses.kind.sakit') },
                { value: 'izin', label: t('excuses.kind.izin') },
              ]}
              data-testid="excuse-kind"
            />
            <Group grow>
              <TextInput type="date" label={t('excuses.from')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} error={fields.from} data-testid="excuse-from" />
              {!someHours && <TextInput type="date" label={t('excuses.to')} value={to} min={from} onChange={(e) => setTo(e.currentTarget.value)} error={fields.to} data-testid="excuse-to" />}
            </Group>
            <Checkbox label={t('excuses.someHours')} checked={someHours} onChange={(e) => setSomeHours(e.currentTarget.checked)} />
            {someHours && (
              <Chip.Group multiple value={hours} onChange={setHours}>
                <Group gap={6}>
                  {HOURS.map((h) => (
                    <Chip key={h} value={String(h)} size="sm">
                      {h}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            )}
            {fields.lesson_hours && <Text size="sm" c="red">{fields.lesson_hours}</Text>}
            <Textarea label={t('excuses.reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={1000} autosize minRows={2} error={fields.reason} data-testid="excuse-reason" />
            <FileInput label={t('excuses.photos')} accept="image/*" multiple clearable value={photos} onChange={(v) => setPhotos(v.slice(0, 3))} error={fields.photos} />
            <Button type="submit" loading={submit.isPending} data-testid="excuse-submit">
              {t('excuses.submit')}
            </Button>
          </Stack>
        </form>
      </Card>
      {list.data?.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('ortu.excuses.none')}
        </Text>
      )}
      {list.data?.data.map((e) => (
        <Card key={e.id} withBorder p="xs" radius="md" data-testid="portal-excuse">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text size="sm" fw={600}>
                {t(`excuses.kind.${e.kind}`)}
              </Text>
              <ExcuseSpan e={e} />
              {e.status !== 'pending' && (
                <Text size="xs" c="dimmed">
                  {t('excuses.decidedBy', { name: e.decided_by_name })}
                  {e.refusal_reason ? ` — ${e.refusal_reason}` : ''}
                </Text>
              )}
            </div>
            <Badge color={STATUS_COLOURS[e.status]} style={{ flexShrink: 0 }} data-testid="portal-excuse-status" data-status={e.status}>
              {t(`excuses.status.${e.status}`)}
            </Badge>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
