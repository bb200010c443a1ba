import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Group, Paper, Text } from '@mantine/core';
import { IconClipboardCheck, IconX } from '@tabler/icons-react';
import { useFormatDate } from '@/lib/useFormatDate';
import { emptySelection, pageState, refresh, selectable, selectedIds, studentCount, toggle, togglePage, type Selection } from '../selection';
import type { Violation } from '../types';
import { HandlingForm } from './HandlingForm';

/**
 * The list's chosen violations, kept across pages and filters (the bar says how many): choosing
 * lateness on one filter and alpha on another makes one record for both. Rows reloaded after a
 * change bring their new status (a row resolved meanwhile leaves).
 */
export function useListSelection(rows: readonly Violation[]) {
  const [sel, setSel] = useState<Selection>(emptySelection);
  useEffect(() => setSel((s) => refresh(s, rows)), [rows]);
  return {
    sel,
    toggle: (v: Violation) => setSel((s) => toggle(s, v)),
    togglePage: () => setSel((s) => togglePage(s, rows)),
    drop: (ids: number[]) =>
      setSel((s) => {
        const next = new Map(s);
        for (const id of ids) next.delete(id);
        return next;
      }),
    clear: () => setSel(emptySelection),
    pageState: pageState(sel, rows),
  };
}

export type ListSelection = ReturnType<typeof useListSelection>;

/** A row's checkbox: 44 px to tap on a phone, named for a screen reader; a resolved row cannot be chosen. */
export function RowCheckbox({ v, selection }: { v: Violation; selection: ListSelection }) {
  const { t } = useTranslation('violations');
  const fmt = useFormatDate();
  const open = selectable(v);
  return (
    <Checkbox
      checked={selection.sel.has(v.id)}
      disabled={!open}
      onChange={() => selection.toggle(v)}
      onClick={(e) => e.stopPropagation()}
      aria-label={t(open ? 'selection.row' : 'selection.rowResolved', { name: v.student_name, type: v.type_name, date: fmt(v.occurred_at, 'shortDate') })}
      styles={{ body: { minHeight: 44, minWidth: 44, alignItems: 'center', justifyContent: 'center' } }}
      data-testid={`select-${v.id}`}
    />
  );
}

/** The header's checkbox: chooses the page's open rows, or lets a fully chosen page go. */
export function PageCheckbox({ selection }: { selection: ListSelection }) {
  const { t } = useTranslation('violations');
  return (
    <Checkbox
      checked={selection.pageState === 'all'}
      indeterminate={selection.pageState === 'some'}
      onChange={selection.togglePage}
      aria-label={t('selection.page')}
      data-testid="select-page"
    />
  );
}

/** Under the list while something is chosen: how many, "Tangani" (one record for all) and "Batal". */
export function SelectionBar({ selection }: { selection: ListSelection }) {
  const { t } = useTranslation('violations');
  const [open, setOpen] = useState(false);
  const ids = selectedIds(selection.sel);
  const students = studentCount(selection.sel);
  if (ids.length === 0 && !open) return null;
  return (
    <>
      {ids.length > 0 && (
        <Paper
          withBorder
          shadow="md"
          p="sm"
          mt="md"
          style={{ position: 'sticky', bottom: 'var(--mantine-spacing-sm)', zIndex: 5 }}
          data-testid="selection-bar"
          role="region"
          aria-label={t('selection.bar')}
        >
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm" fw={500} aria-live="polite" data-testid="selection-count">
              {t('selection.count', { count: ids.length, students: t('selection.students', { count: students }) })}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={selection.clear} data-testid="selection-clear">
                {t('selection.clear')}
              </Button>
              <Button leftSection={<IconClipboardCheck size={18} aria-hidden />} onClick={() => setOpen(true)} data-testid="selection-handle">
                {t('selection.handle')}
              </Button>
            </Group>
          </Group>
        </Paper>
      )}
      <HandlingForm
        shared={{ ids, students, onRefused: selection.drop }}
        opened={open}
        onClose={() => setOpen(false)}
        onDone={selection.clear}
      />
    </>
  );
}
