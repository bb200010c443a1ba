import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { LAPOR_PATH, publicReportsApi, type ReportView } from './api';
import { PublicFrame } from './PublicFrame';

const STATUS_COLOUR = { received: 'blue', in_progress: 'orange', closed: 'gray' } as const;

/** /lapor/lacak: the reporter reads the school's replies and writes back, with code and PIN. */
export default function TrackPage() {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const [code, setCode] = useState('');
  const [pin, setPin] = useState('');
  const [view, setView] = useState<ReportView | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<ReportView>) => {
    setBusy(true);
    setError(null);
    try {
      setView(await fn());
      return true;
    } catch (err) {
      setError(errorMessage(err, tc));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const open = (e: React.FormEvent) => {
    e.preventDefault();
    void run(() => publicReportsApi.lookup(code, pin));
  };
  const send = async () => {
    if (await run(() => publicReportsApi.message(code, pin, text))) setText('');
  };
  return (
    <PublicFrame title={t('public.trackTitle')}>
      {error && (
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} data-testid="lacak-error">
          {error}
        </Alert>
      )}
      {!view ? (
        <form onSubmit={open} noValidate>
          <Stack gap="md">
            <TextInput label={t('public.code')} required autoCapitalize="characters" autoComplete="off" value={code} onChange={(e) => setCode(e.currentTarget.value)} data-testid="lacak-code" />
            <TextInput label={t('public.pin')} required inputMode="numeric" autoComplete="off" type="password" value={pin} onChange={(e) => setPin(e.currentTarget.value)} data-testid="lacak-pin" />
            <Button type="submit" loading={busy} fullWidth disabled={!code.trim() || !pin.trim()} data-testid="lacak-open">
              {t('public.open')}
            </Button>
            <Anchor component={Link} to={LAPOR_PATH} size="sm" ta="center">
              {t('public.newReport')}
            </Anchor>
          </Stack>
        </form>
      ) : (
        <Stack gap="md" data-testid="lacak-view">
          <Group justify="space-between">
            <Text size="sm">
              {view.category} · {fmt(view.created_at, 'shortDate')}
            </Text>
            <Badge color={STATUS_COLOUR[view.status]} variant="light" tt="none" data-testid="lacak-status">
              {t(`public.status.${view.status}`)}
            </Badge>
          </Group>
          {view.messages.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('public.noReply')}
            </Text>
          )}
          {view.messages.map((m, i) => (
            <Card key={i} withBorder padding="sm" bg={m.sender === 'school' ? 'var(--mantine-color-blue-0)' : undefined} data-testid="lacak-message" data-sender={m.sender}>
              <Text size="xs" c="dimmed">
                {t(`public.sender.${m.sender}`)} · {fmt(m.at, 'dateTime')}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {m.text}
              </Text>
            </Card>
          ))}
          {view.status !== 'closed' && (
            <>
              <Textarea label={t('public.reply')} autosize minRows={2} maxLength={2000} value={text} onChange={(e) => setText(e.currentTarget.value)} data-testid="lacak-text" />
              <Button onClick={() => void send()} loading={busy} disabled={!text.trim()} data-testid="lacak-send">
                {t('public.send')}
              </Button>
            </>
          )}
        </Stack>
      )}
    </PublicFrame>
  );
}
