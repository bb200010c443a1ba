import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Popover } from '@mantine/core';
import { cellKey, effective, move, sourceOf, statusForKey, type BulkScope, type Draft, type Pos, type Stored } from '../grid';
import { useCellProvenance } from '../provenance';
import { STATUS_COLOURS, letterOf } from '../statuses';
import type { AttendanceCell, AttendanceForm, CellStatus } from '../types';
import { StatusPicker, type PickerTarget } from './StatusPicker';
import classes from './AttendanceGrid.module.css';

export interface GridProps {
  form: AttendanceForm;
  stored: Stored;
  draft: Draft;
  editable: boolean;
  /** Cells the last save refused (entries[i] field errors). */
  errorKeys: ReadonlySet<string>;
  onSetCell: (key: string, status: CellStatus) => void;
  /** A bulk change: empty cells only, or every cell of the scope with overwrite. */
  onBulk: (scope: BulkScope, status: CellStatus, overwrite: boolean) => void;
}

const posAttr = (p: Pos) => `${p.row}:${p.col}`;

interface CellProps {
  row: number;
  col: number;
  status: CellStatus;
  dirty: boolean;
  error: boolean;
  stored: AttendanceCell | undefined;
  label: string;
  title: string;
  tabStop: boolean;
}

/** One lesson hour of one student: its letter on its colour, and marks for unsaved, journal and Face-ID. */
const Cell = memo(function Cell({ row, col, status, dirty, error, stored, label, title, tabStop }: CellProps) {
  const c = STATUS_COLOURS[status];
  const source = stored ? sourceOf(stored) : undefined;
  const chip = [
    classes.chip,
    status === 'belum' && classes.belum,
    dirty && classes.dirty,
    !dirty && source === 'journal' && classes.journal,
    !dirty && source === 'kiosk' && classes.kiosk,
    error && classes.error,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <td
      role="gridcell"
      className={classes.cell}
      tabIndex={tabStop ? 0 : -1}
      data-pos={`${row}:${col}`}
      data-status={status}
      data-dirty={dirty || undefined}
      data-error={error || undefined}
      data-journal={source === 'journal' || undefined}
      data-source={source}
      aria-label={label}
      title={title}
    >
      <span className={chip} style={{ background: c.bg, color: c.fg, borderColor: c.border }} aria-hidden>
        {letterOf(status)}
      </span>
    </td>
  );
});

/**
 * The students × lesson hours grid (an ARIA grid with one tab stop). Arrow keys, Home/End and
 * Page Up/Down move; H S I A T set the focused cell; Backspace, Delete, 0 or - drop its unsaved
 * value; Enter or Space (or a tap) opens the picker, which also says who set the cell last.
 * The corner, the hour headers and the student names open the same picker for the whole
 * class, the hour or the student's day.
 */
export function AttendanceGrid({ form, stored, draft, editable, errorKeys, onSetCell, onBulk }: GridProps) {
  const { t } = useTranslation('attendance');
  const hours = Array.from({ length: form.lesson_hours }, (_, i) => i + 1);
  const rows = form.students.length + 1;
  const cols = hours.length + 1;
  const [focus, setFocus] = useState<Pos>({ row: rows > 1 ? 1 : 0, col: cols > 1 ? 1 : 0 });
  const [picker, setPicker] = useState<PickerTarget | null>(null);
  const [anchor, setAnchor] = useState<{ left: number; top: number; width: number; height: number } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const wantFocus = useRef(false);

  // Keep the tab stop inside the grid when the class (and so its size) changes.
  useEffect(() => {
    setFocus((f) => ({ row: Math.min(f.row, rows - 1), col: Math.min(f.col, cols - 1) }));
  }, [rows, cols]);

  const elementAt = useCallback((p: Pos) => scroller.current?.querySelector<HTMLElement>(`[data-pos="${posAttr(p)}"]`) ?? null, []);

  useLayoutEffect(() => {
    if (!wantFocus.current) return;
    wantFocus.current = false;
    const el = elementAt(focus);
    el?.focus({ preventScroll: false });
    el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [focus, elementAt]);

  const focusAt = (p: Pos) => {
    wantFocus.current = true;
    setFocus({ ...p });
  };

  const targetAt = (p: Pos): PickerTarget | null => {
    if (p.row === 0 && p.col === 0) return editable ? { kind: 'class' } : null;
    if (p.row === 0) return editable ? { kind: 'hour', hour: hours[p.col - 1]! } : null;
    const st = form.students[p.row - 1];
    if (!st) return null;
    if (p.col === 0) return editable ? { kind: 'student', studentId: st.id } : null;
    return { kind: 'cell', key: cellKey(st.id, hours[p.col - 1]!), studentId: st.id, hour: hours[p.col - 1]! };
  };

  const openAt = (p: Pos) => {
    const target = targetAt(p);
    const el = elementAt(p);
    const box = scroller.current;
    if (!target || !el || !box) return;
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    setAnchor({ left: r.left - b.left + box.scrollLeft, top: r.top - b.top + box.scrollTop, width: r.width, height: r.height });
    setPicker(target);
  };

  const closePicker = () => {
    setPicker(null);
    focusAt(focus);
  };

  const posOf = (el: EventTarget | null): Pos | null => {
    const at = (el as HTMLElement | null)?.closest?.('[data-pos]')?.getAttribute('data-pos');
    if (!at) return null;
    const [r, c] = at.split(':').map(Number);
    return { row: r!, col: c! };
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    const p = posOf(e.target);
    if (!p || e.altKey || e.metaKey) return;
    const next = move(p, e.key, rows, cols, e.ctrlKey, 8);
    if (next) {
      e.preventDefault();
      focusAt(next);
      return;
    }
    if (e.ctrlKey) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setFocus(p);
      openAt(p);
      return;
    }
    const status = statusForKey(e.key);
    if (status && editable && p.row > 0 && p.col > 0) {
      e.preventDefault();
      const st = form.students[p.row - 1];
      if (st) onSetCell(cellKey(st.id, hours[p.col - 1]!), status);
    }
  };

  const onClick = (e: MouseEvent<HTMLTableElement>) => {
    const p = posOf(e.target);
    if (!p) return;
    setFocus(p);
    openAt(p);
  };

  const statusName = (s: CellStatus) => t(`status.${s}`);
  const provenance = useCellProvenance(form.date);
  const infoText = provenance.info;

  const header = (p: Pos) => ({
    tabIndex: focus.row === p.row && focus.col === p.col ? 0 : -1,
    'data-pos': posAttr(p),
  });

  return (
    <div ref={scroller} className={`${classes.scroller} ${editable ? '' : classes.readonly}`} data-testid="attendance-scroller">
      <table
        role="grid"
        className={classes.grid}
        aria-label={t('grid.label', { name: form.class_name })}
        aria-rowcount={rows}
        aria-colcount={cols}
        aria-readonly={!editable || undefined}
        data-testid="attendance-grid"
        onKeyDown={onKeyDown}
        onClick={onClick}
      >
        <thead>
          <tr role="row">
            <th
              role="columnheader"
              scope="col"
              className={`${classes.corner} ${editable ? classes.interactive : ''}`}
              aria-label={editable ? t('grid.cornerEdit') : t('grid.student')}
              aria-haspopup={editable ? 'dialog' : undefined}
              data-testid="bulk-class-header"
              {...header({ row: 0, col: 0 })}
            >
              {t('grid.student')}
            </th>
            {hours.map((h, i) => (
              <th
                key={h}
                role="columnheader"
                scope="col"
                className={`${classes.colHead} ${editable ? classes.interactive : ''}`}
                aria-label={editable ? t('grid.hourEdit', { hour: h }) : t('grid.hour', { hour: h })}
                aria-haspopup={editable ? 'dialog' : undefined}
                data-testid={`hour-header-${h}`}
                {...header({ row: 0, col: i + 1 })}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {form.students.map((st, r) => (
            <tr key={st.id} role="row" data-testid={`student-row-${st.id}`}>
              <th
                role="rowheader"
                scope="row"
                className={`${classes.rowHead} ${editable ? classes.interactive : ''}`}
                aria-label={editable ? t('grid.studentEdit', { name: st.full_name }) : st.full_name}
                aria-haspopup={editable ? 'dialog' : undefined}
                title={st.full_name}
                data-testid={`student-header-${st.id}`}
                {...header({ row: r + 1, col: 0 })}
              >
                <span className={classes.name}>{st.full_name}</span>
                <span className={classes.nis}>{st.nis}</span>
              </th>
              {hours.map((h, c) => {
                const key = cellKey(st.id, h);
                const status = effective(stored, draft, key);
                const cell = stored.get(key);
                const dirty = key in draft;
                const info = cell ? infoText(cell) : '';
                const label = [
                  t('grid.cellLabel', { name: st.full_name, hour: h, status: statusName(status) }),
                  dirty ? t('grid.unsaved') : '',
                  cell ? provenance.short(cell) : '',
                ]
                  .filter(Boolean)
                  .join(', ');
                return (
                  <Cell
                    key={h}
                    row={r + 1}
                    col={c + 1}
                    status={status}
                    dirty={dirty}
                    error={errorKeys.has(key)}
                    stored={cell}
                    label={label}
                    title={[`${st.full_name} · ${t('grid.hour', { hour: h })}: ${statusName(status)}`, info].filter(Boolean).join('\n')}
                    tabStop={focus.row === r + 1 && focus.col === c + 1}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <Popover opened={!!picker} onChange={(o) => !o && closePicker()} position="bottom" withArrow shadow="md" trapFocus returnFocus={false} withinPortal>
        <Popover.Target>
          <div className={classes.anchor} style={anchor ?? undefined} aria-hidden />
        </Popover.Target>
        <Popover.Dropdown p="xs" data-testid="status-picker">
          {picker && (
            <StatusPicker
              target={picker}
              form={form}
              stored={stored}
              draft={draft}
              editable={editable}
              infoText={infoText}
              onPick={(status, overwrite) => {
                if (picker.kind === 'cell') onSetCell(picker.key, status);
                else onBulk(picker, status, overwrite);
                closePicker();
              }}
            />
          )}
        </Popover.Dropdown>
      </Popover>
    </div>
  );
}
