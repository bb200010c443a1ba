import type { TFunction } from 'i18next';

/** The point-audit actions the server writes, each with a label in the school's words. */
export const POINT_ACTIONS = ['record', 'delete', 'update', 'correct', 'auto_record', 'auto_update', 'auto_delete', 'offset', 'amnesty'] as const;

/** "Dicatat", "Dihapus", "Diperbarui otomatis", …; an unknown action shows as it is. */
export function pointActionLabel(action: string, t: TFunction): string {
  return (POINT_ACTIONS as readonly string[]).includes(action) ? t(`audit.actions.${action}`) : action;
}

/** The change as a signed figure: +15, −10, 0. */
export function pointsDelta(before: number, after: number): number {
  return after - before;
}
