import { useTranslation } from 'react-i18next';
import { STATUS_COLOURS } from '../statuses';
import type { AttendanceStatus } from '../types';

const chip = {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: 22,
  height: 20,
  padding: '0 4px',
  borderRadius: 4,
  fontWeight: 700,
  fontSize: 12,
  lineHeight: 1,
  whiteSpace: 'nowrap',
} as const;

/** A status letter (optionally with a count: "A2") in its colour; its name for screen readers. */
export function StatusBadge({ status, count }: { status: AttendanceStatus; count?: number }) {
  const { t } = useTranslation('attendance-recap');
  const c = STATUS_COLOURS[status];
  const label = count === undefined ? t(`status.${status}`) : t('hoursOf', { count, status: t(`status.${status}`) });
  return (
    <span style={{ ...chip, background: c.bg, color: c.fg, border: `1px solid ${c.border}` }} title={label} aria-label={label} role="img">
      {status}
      {count !== undefined ? count : ''}
    </span>
  );
}

/** A grey dash: nothing stored (belum). */
export function Belum() {
  const { t } = useTranslation('attendance-recap');
  return (
    <span style={{ ...chip, background: '#fff', color: '#5c636a', border: '1px dashed #ced4da' }} title={t('belum')} aria-label={t('belum')} role="img">
      –
    </span>
  );
}
