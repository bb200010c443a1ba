import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Group, Image, Stack, Text, Textarea, Title } from '@mantine/core';
import { API_BASE } from '@/api/client';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import type { Case } from '../api';
import { useReply } from '../hooks';

/** The anonymous report behind the case: the reporter's messages, photos and the school's replies. */
export function ReportThread({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const reply = useReply(c.id);
  const [text, setText] = useState('');
  if (!c.report) return null;
  const r = c.report;
  const send = async () => {
    try {
      await reply.mutateAsync(text);
      notifySuccess(t('report.sent'));
      setText('');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Card withBorder data-testid="case-report">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('report.title')}
        </Title>
        <Text size="sm">{r.reporter_name ? t('report.reporter', { name: r.reporter_name }) : t('report.anonymous')}</Text>
        {r.photo_ids.length > 0 && (
          <Group gap="xs">
            {r.photo_ids.map((p) => (
              <a key={p} href={`${API_BASE}/cases/${c.id}/report-photos/${p}`} target="_blank" rel="noreferrer">
                <Image src={`${API_BASE}/cases/${c.id}/report-photos/${p}/thumbnail`} alt={t('report.photos')} w={96} h={72} fit="cover" radius="sm" />
              </a>
            ))}
          </Group>
        )}
        {r.messages.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('report.none')}
          </Text>
        )}
        {r.messages.map((m) => (
          <Stack key={m.id} gap={0} data-testid="case-report-message">
            <Text size="xs" c="dimmed">
              {(m.from_reporter ? t('report.fromReporter') : m.user_name) + ' · ' + fmt(m.at, 'dateTime')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {m.text}
            </Text>
          </Stack>
        ))}
        {c.can_edit && (
          <>
            <Textarea label={t('report.reply')} autosize minRows={2} maxLength={2000} value={text} onChange={(e) => setText(e.currentTarget.value)} data-testid="case-reply-text" />
            <Group justify="flex-end">
              <Button onClick={() => void send()} disabled={!text.trim()} loading={reply.isPending} data-testid="case-reply-send">
                {t('report.send')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
