import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import type { WarningLetter } from '../api';
import { useSendLetter } from '../hooks';
import { levelName } from '../letters';
import { sendState } from '../sending';
import { useTouchButton } from '../touch';

/**
 * "Kirim ke orang tua": parents hear of a letter when the school sends it, never when a rule
 * drafts or raises it. Marks the letter sent and queues the parent's message (once per letter
 * and level), after a confirmation; says when it was sent, and offers it again once raised.
 */
export function SendToParent({ letter }: { letter: WarningLetter }) {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const fmt = useFormatDate();
  const touch = useTouchButton();
  const [open, setOpen] = useState(false);
  const send = useSendLetter();
  const state = sendState(letter);
  const name = levelName(letter.level, letter.name);
  const sentNote = letter.sent_to_parent_at && (
    <>
      <Text size="sm" c="dimmed" data-testid="letter-sent-note">
        {t('send.sentOn', { date: fmt(letter.sent_to_parent_at, 'dateTime') })}
      </Text>
      {letter.acknowledged_at && (
        <Text size="sm" c="teal" data-testid="letter-acknowledged">
          {t('send.acknowledged', { names: letter.acknowledged_by ?? '', date: fmt(letter.acknowledged_at, 'dateTime') })}
        </Text>
      )}
    </>
  );
  if (state === 'closed' || state === 'sent' || !can('warning_letters.manage')) return sentNote || null;

  const confirm = () =>
    send.mutate(letter.id, {
      onSuccess: () => {
        setOpen(false);
        notifySuccess(t('send.done', { level: name, student: letter.student_name }));
      },
      onError: (err) => {
        setOpen(false);
        notifyError(err, tc);
      },
    });

  return (
    <>
      <Button variant="light" {...touch} leftSection={<IconSend size={16} aria-hidden />} onClick={() => setOpen(true)} data-testid="letter-send">
        {state === 'raised' ? t('send.again', { level: name }) : t('send.action')}
      </Button>
      {sentNote}
      <Modal opened={open} onClose={() => setOpen(false)} title={t('send.confirmTitle')} centered data-testid="letter-send-dialog">
        <Stack gap="md">
          <Text size="sm">{t('send.confirmBody', { level: name, student: letter.student_name })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" {...touch} onClick={() => setOpen(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button {...touch} loading={send.isPending} onClick={confirm} data-testid="letter-send-confirm">
              {t('send.action')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
