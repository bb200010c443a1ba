import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconDownload } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { saveFile } from '@/platform';
import { lettersApi, type WarningLetter } from '../api';
import { letterKeys, useSetLetterStatus } from '../hooks';
import { letterFileName, levelName, nextStatus } from '../letters';
import { useTouchButton } from '../touch';


/** "Unduh PDF": fetched with the session, saved through the platform (native dialog on desktop). */
export function PdfButton({ letter, fullWidth = false }: { letter: WarningLetter; fullWidth?: boolean }) {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const touch = useTouchButton();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      // The server's name (SP1-<student>-<day>.pdf) when it sends one.
      const { blob, fileName } = await lettersApi.pdf(letter.id);
      await saveFile(blob, fileName ?? letterFileName(letter));
      notifySuccess(t('pdf.saved'));
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setBusy(false);
      // The first download gives the letter its number.
      if (!letter.number) void qc.invalidateQueries({ queryKey: letterKeys.letters });
    }
  };
  return (
    <Button
      variant="default"
      {...touch}
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={busy}
      onClick={() => void download()}
      fullWidth={fullWidth}
      aria-label={t('pdf.downloadFor', { level: levelName(letter.level, letter.name), student: letter.student_name })}
      data-testid={`letter-pdf-${letter.id}`}
    >
      {t('pdf.download')}
    </Button>
  );
}

/**
 * The next status step ("Tandai dicetak" → "Tandai ditandatangani" → "Tandai diterima"), after a
 * confirmation. A letter of an academic year that has ended takes no step (the server refuses it
 * with 409 letter.past_year); it says so instead.
 */
export function StepButton({ letter, fullWidth = false }: { letter: WarningLetter; fullWidth?: boolean }) {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const touch = useTouchButton();
  const [open, setOpen] = useState(false);
  const step = useSetLetterStatus();
  const next = nextStatus(letter.status);
  if (!next || !can('warning_letters.manage')) return null;
  if (letter.past_year) {
    return (
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid={`letter-readonly-${letter.id}`}>
        {t('pastYear.short')}
      </Text>
    );
  }

  const confirm = () =>
    step.mutate(
      { id: letter.id, status: next },
      {
        onSuccess: () => {
          setOpen(false);
          notifySuccess(t(`step.done.${next}`, { level: levelName(letter.level, letter.name), student: letter.student_name }));
        },
        onError: (err) => {
          setOpen(false);
          notifyError(err, tc);
        },
      },
    );

  return (
    <>
      <Button
        variant="light"
        {...touch}
        rightSection={<IconArrowRight size={16} aria-hidden />}
        onClick={() => setOpen(true)}
        fullWidth={fullWidth}
        data-testid={`letter-step-${letter.id}`}
        data-next={next}
      >
        {t(`step.action.${next}`)}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t(`step.confirmTitle.${next}`)} centered data-testid="letter-step-dialog">
        <Stack gap="md">
          <Text size="sm">{t(`step.confirmBody.${next}`, { level: levelName(letter.level, letter.name), student: letter.student_name })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" {...touch} onClick={() => setOpen(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button {...touch} loading={step.isPending} onClick={confirm} data-testid="letter-step-confirm">
              {t(`step.action.${next}`)}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
