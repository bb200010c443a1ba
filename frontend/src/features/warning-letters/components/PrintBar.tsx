import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCalendarWeek, IconPrinter, IconX } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { useFormatDate } from '@/lib/useFormatDate';
import { lettersApi } from '../api';
import { usePrintLetters } from '../hooks';
import { DEFAULT_LETTER_FILTERS } from '../letters';
import { batchIds, draftCount, MAX_BATCH, weekOf, type Selection } from '../selection';
import { useTouchButton } from '../touch';

/** A batch about to print: its ids, how many are drafts, how many wait for the next batch. */
interface Pending {
  ids: number[];
  drafts: number;
  left: number;
  /** "All drafts of this week": the week's first and last day. */
  week?: { from: string; to: string };
}

/** The drafts issued this school week (Monday to Sunday, Jakarta), at most one batch of them. */
async function draftsOfWeek(): Promise<Pending & { week: { from: string; to: string } }> {
  const week = weekOf(todayInJakarta().format('YYYY-MM-DD'));
  const ids: number[] = [];
  let total = 0;
  for (let page = 1; ids.length < MAX_BATCH; page++) {
    const res = await lettersApi.list({ ...DEFAULT_LETTER_FILTERS, status: 'draft', from: week.from, to: week.to, page }, 100);
    total = res.meta.total;
    ids.push(...res.data.map((l) => l.id));
    if (res.data.length < 100) break;
  }
  const kept = ids.slice(0, MAX_BATCH);
  return { ids: kept, drafts: kept.length, left: Math.max(0, total - kept.length), week };
}

/**
 * The batch print above the list (warning_letters.manage): print the chosen letters, or every
 * draft of this week, as one PDF saved through the platform. Printing numbers the letters and
 * marks the drafts printed, so it asks first.
 */
export function PrintBar({ selection, onPrinted, onClear }: { selection: Selection; onPrinted: () => void; onClear: () => void }) {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const touch = useTouchButton();
  const print = usePrintLetters();
  const [pending, setPending] = useState<Pending | null>(null);
  const [finding, setFinding] = useState(false);
  const chosen = selection.size;

  const askChosen = () => {
    const { ids, left } = batchIds(selection);
    setPending({ ids, left, drafts: draftCount(new Map([...selection].filter(([id]) => ids.includes(id)))) });
  };
  const askWeek = async () => {
    setFinding(true);
    try {
      const p = await draftsOfWeek();
      if (p.ids.length === 0) notifySuccess(t('print.noDrafts'));
      else setPending(p);
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setFinding(false);
    }
  };
  const confirm = () => {
    if (!pending) return;
    const week = !!pending.week;
    print.mutate(pending.ids, {
      onSuccess: (n) => {
        setPending(null);
        notifySuccess(t('print.done', { count: n }));
        if (!week) onPrinted();
      },
      onError: (err) => {
        setPending(null);
        notifyError(err, tc);
      },
    });
  };

  return (
    <>
      <Group gap="sm" px="md" pb="md" wrap="wrap" data-testid="letters-print-bar">
        {chosen > 0 && (
          <Text size="sm" fw={600} data-testid="letters-chosen">
            {t('print.chosen', { count: chosen })}
          </Text>
        )}
        <Button
          {...touch}
          leftSection={<IconPrinter size={16} aria-hidden />}
          disabled={chosen === 0}
          onClick={askChosen}
          data-testid="letters-print-chosen"
        >
          {chosen === 0 ? t('print.chosenNone') : t('print.chosenAction', { count: chosen })}
        </Button>
        {chosen > 0 && (
          <Button {...touch} variant="subtle" leftSection={<IconX size={16} aria-hidden />} onClick={onClear} data-testid="letters-clear-chosen">
            {t('print.clear')}
          </Button>
        )}
        <Button
          {...touch}
          variant="default"
          leftSection={<IconCalendarWeek size={16} aria-hidden />}
          loading={finding}
          onClick={() => void askWeek()}
          data-testid="letters-print-week"
        >
          {t('print.week')}
        </Button>
      </Group>
      <Modal opened={!!pending} onClose={() => setPending(null)} title={t('print.confirmTitle', { count: pending?.ids.length ?? 0 })} centered data-testid="letters-print-dialog">
        {pending && (
          <Stack gap="sm">
            {pending.week && (
              <Text size="sm">{t('print.weekRange', { from: fmt(pending.week.from, 'date'), to: fmt(pending.week.to, 'date') })}</Text>
            )}
            <Text size="sm">{t('print.confirmBody')}</Text>
            {pending.drafts > 0 && <Text size="sm">{t('print.confirmDrafts', { count: pending.drafts })}</Text>}
            {pending.left > 0 && (
              <Text size="sm" c="orange.9">
                {t('print.confirmLeft', { count: pending.left, max: MAX_BATCH })}
              </Text>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" {...touch} onClick={() => setPending(null)}>
                {tc('actions.cancel')}
              </Button>
              <Button {...touch} leftSection={<IconPrinter size={16} aria-hidden />} loading={print.isPending} onClick={confirm} data-testid="letters-print-confirm">
                {t('print.confirmAction')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
