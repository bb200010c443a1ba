import type { TFunction } from 'i18next';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError, isUnreachable } from '@/api/errors';

/**
 * The text to show for a failed call: the server's message, else a sentence for its kind.
 * Never a code: codes are for programs, the sentence is for people.
 */
export function errorMessage(err: unknown, t: TFunction): string {
  if (isUnreachable(err)) return t('errors.unreachable.full');
  if (isApiError(err)) {
    if (err.code === 'rate_limited' && err.message) return err.message;
    return err.message || t(`errors.code.${err.code}`);
  }
  return t('errors.unexpected.message');
}

/**
 * Puts the server's field errors on the form's fields (Mantine setErrors) and returns the
 * message still to show above the form: null when every problem sits at a field.
 */
export function applyServerErrors<V extends object>(form: UseFormReturnType<V>, err: unknown, t: TFunction): string | null {
  if (isApiError(err) && err.hasFieldErrors) {
    const known = new Set(Object.keys(form.getValues()));
    const atFields = Object.fromEntries(Object.entries(err.fields).filter(([k]) => known.has(k)));
    const rest = Object.entries(err.fields).filter(([k]) => !known.has(k));
    form.setErrors(atFields);
    if (rest.length === 0) return null;
    return rest.map(([, v]) => v).join(' ');
  }
  return errorMessage(err, t);
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, withBorder: true });
}

export function notifyError(err: unknown, t: TFunction): void {
  notifications.show({ color: 'red', title: t('errors.failed'), message: errorMessage(err, t), withBorder: true });
}
