import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconFaceId, IconPlugConnected } from '@tabler/icons-react';
import { useFormatNumber } from '@/lib/numbers';
import { bulkKeys, effective, sourceOf, type BulkScope, type Draft, type Stored, statusForKey } from '../grid';
import { STATUS_COLOURS, letterOf } from '../statuses';
import { BELUM, STATUSES, type AttendanceCell, type AttendanceForm, type CellStatus } from '../types';

/** What the picker sets: one cell, or a bulk scope. */
export type PickerTarget = { kind: 'cell'; key: string; studentId: number; hour: number } | BulkScope;

const CHOICES: readonly CellStatus[] = [...STATUSES, BELUM];

export function StatusButton({ status, onClick, active, testId }: { status: CellStatus; onClick: () => void; active?: boolean; testId?: string }) {
  const { t } = useTranslation('attendance');
  const c = STATUS_COLOURS[status];
  return (
    <UnstyledButton
      onClick={onClick}
      aria-label={t(`status.${status}`)}
      aria-pressed={active}
      data-autofocus={active || undefined}
      data-testid={testId}
      style={{
        width: 46,
        height: 52,
        borderRadius: 8,
        border: `${active ? 3 : 1}px ${status === BELUM ? 'dashed' : 'solid'} ${active ? '#1864ab' : c.border}`,
        background: c.bg,
        color: c.fg,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        lineHeight: 1.1,
      }}
    >
      <span style={{ fontSize: 18, fontWeight: 700 }} aria-hidden>
        {letterOf(status)}
      </span>
      <span style={{ fontSize: 10 }} aria-hidden>
        {t(`statusShort.${status}`)}
      </span>
    </UnstyledButton>
  );
}

/**
 * The six choices (H S I A T and belum) for a cell or a bulk scope, with who set the cell last.
 * Letters typed here choose too. A bulk scope fills its empty cells; "overwrite" is the explicit
 * choice to set the filled ones too (the save then shows what others set and asks to confirm).
 */
export function StatusPicker({
  target,
  form,
  stored,
  draft,
  editable,
  infoText,
  onPick,
  defaultOverwrite = false,
}: {
  target: PickerTarget;
  form: AttendanceForm;
  stored: Stored;
  draft: Draft;
  editable: boolean;
  infoText: (cell: AttendanceCell) => string;
  onPick: (status: CellStatus, overwrite: boolean) => void;
  defaultOverwrite?: boolean;
}) {
  const { t } = useTranslation('attendance');
  const num = useFormatNumber();
  const [overwrite, setOverwrite] = useState(defaultOverwrite);
  const name = (id: number) => form.students.find((s) => s.id === id)?.full_name ?? '';

  let title: string;
  let current: CellStatus | undefined;
  let cell: AttendanceCell | undefined;
  switch (target.kind) {
    case 'cell':
      title = `${name(target.studentId)} · ${t('grid.hour', { hour: target.hour })}`;
      current = effective(stored, draft, target.key);
      cell = stored.get(target.key);
      break;
    case 'class':
      title = t('bulk.classTitle');
      break;
    case 'hour':
      title = t('bulk.hourTitle', { hour: target.hour });
      break;
    case 'student':
      title = t('bulk.studentTitle', { name: name(target.studentId) });
      break;
  }
  const dirty = target.kind === 'cell' && target.key in draft;
  // How many cells a status chosen now would set (any status but belum reaches the same ones).
  const reach = target.kind === 'cell' ? 0 : bulkKeys(stored, draft, form, target, 'H', overwrite).length;

  const onKeyDown = (e: KeyboardEvent) => {
    if (!editable || e.ctrlKey || e.altKey || e.metaKey) return;
    // Backspace in the picker means belum as on the grid; letters choose.
    const s = statusForKey(e.key);
    if (s) {
      e.preventDefault();
      onPick(s, overwrite);
    }
  };

  return (
    <Stack gap="xs" maw={300} onKeyDown={onKeyDown} role="group" aria-label={title}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {editable && (
        <Group gap={4} wrap="nowrap">
          {CHOICES.map((s) => (
            <StatusButton key={s} status={s} active={s === current} onClick={() => onPick(s, overwrite)} testId={`pick-${s}`} />
          ))}
        </Group>
      )}
      {editable && target.kind !== 'cell' && (
        <>
          <Text size="xs" data-testid="bulk-count" data-count={reach}>
            {t(overwrite ? 'bulk.countAll' : 'bulk.countEmpty', { count: reach, n: num(reach) })}
          </Text>
          <Checkbox
            size="sm"
            label={t('bulk.overwrite')}
            description={t('bulk.overwriteHint')}
            checked={overwrite}
            onChange={(e) => setOverwrite(e.currentTarget.checked)}
            data-testid="bulk-overwrite"
          />
        </>
      )}
      {editable && (
        <Text size="xs" c="dimmed">
          {t('bulk.belumHint')}
        </Text>
      )}
      {target.kind === 'cell' && (
        <Stack gap={2} data-testid="cell-info">
          {!editable && current && (
            <Text size="sm">
              {t('grid.cellStatus', { status: t(`status.${current}`) })}
            </Text>
          )}
          {cell ? (
            <Group gap={4} wrap="nowrap" align="flex-start">
              {sourceOf(cell) === 'journal' && <IconPlugConnected size={14} aria-hidden style={{ marginTop: 2, flexShrink: 0 }} />}
              {sourceOf(cell) === 'kiosk' && <IconFaceId size={14} aria-hidden style={{ marginTop: 2, flexShrink: 0 }} />}
              <Text size="xs">{infoText(cell)}</Text>
            </Group>
          ) : (
            <Text size="xs" c="dimmed">
              {t('info.nothingStored')}
            </Text>
          )}
          {dirty && (
            <Text size="xs" c="#9a3412">
              {cell ? t('info.unsavedOver', { status: t(`status.${cell.status}`) }) : t('info.unsaved')}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
