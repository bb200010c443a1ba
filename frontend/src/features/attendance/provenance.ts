import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, inJakarta } from '@/lib/dates';
import { sourceOf } from './grid';
import type { AttendanceCell } from './types';

/**
 * Who set a cell and when, as people read it: the long line of the cell's details ("Terakhir
 * diisi oleh Bu Wali, 23 Nov 2026 07.15 WIB", "Sinkron E-Jurnal, …", "Face-ID, …", "Izin orang
 * tua, …") and the short one a screen reader hears with each cell ("Sinkron E-Jurnal 07.15";
 * the date too when it was set on another day than the form's).
 */
export function useCellProvenance(formDate: string) {
  const { t, i18n } = useTranslation('attendance');
  const lang = i18n.resolvedLanguage ?? 'id';
  const info = useCallback(
    (cell: AttendanceCell) => {
      const at = formatDate(cell.updated_at, 'dateTime', lang);
      const name = cell.updated_by || t('info.unknown');
      switch (sourceOf(cell)) {
        case 'journal':
          return t('info.journal', { at });
        case 'kiosk':
          return t('info.kiosk', { at });
        case 'excuse':
          return cell.updated_by ? t('info.excuseBy', { name, at }) : t('info.excuse', { at });
        default:
          return t('info.by', { name, at });
      }
    },
    [t, lang],
  );
  const short = useCallback(
    (cell: AttendanceCell) => {
      const sameDay = inJakarta(cell.updated_at).format('YYYY-MM-DD') === formDate;
      const at = formatDate(cell.updated_at, sameDay ? 'time' : 'dateTime', lang);
      const src = sourceOf(cell);
      return t(`source.${src}`, { name: cell.updated_by || t('info.unknown'), at });
    },
    [t, lang, formDate],
  );
  return { info, short };
}
