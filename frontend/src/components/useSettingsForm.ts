import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm, type FormValidateInput, type UseFormReturnType } from '@mantine/form';
import { applyServerErrors, notifySuccess } from './serverErrors';

/** A save mutation (TanStack's useMutation) as a settings form uses it. */
export interface SettingsSave<P> {
  mutate: (payload: P, callbacks: { onSuccess: () => void; onError: (err: unknown) => void }) => void;
  isPending: boolean;
}

export interface SettingsFormOptions<V, D, P> {
  /** The stored settings; the form shows them (and counts as unchanged) once they arrive. */
  data: D | undefined;
  toValues: (data: D) => V;
  /** The form's values before the settings arrive. */
  initialValues: V;
  validate?: FormValidateInput<V>;
  save: SettingsSave<P>;
  /** What is sent (the values as they are by default). */
  payload?: (values: V) => P;
  /** The note shown once saved. */
  saved: string;
  /** After a save, besides the note (e.g. forgetting secrets typed outside the form). */
  onSaved?: () => void;
  /**
   * Where a failed save's errors go: returns what to show above the fields. By default the
   * server's field errors go to the form's fields of the same name (applyServerErrors).
   */
  onError?: (err: unknown, form: UseFormReturnType<V>) => string | null;
  /** Changes kept outside the form (a secret being typed) that count as unsaved too. */
  alsoDirty?: boolean;
}

export interface SettingsForm<V> {
  form: UseFormReturnType<V>;
  /** What failed that sits at no field. */
  error: string | null;
  onSubmit: (e?: FormEvent<HTMLFormElement>) => void;
  dirty: boolean;
  saving: boolean;
}

/**
 * A settings card's form: loads the stored values (not dirty), saves them, puts the server's
 * field errors at their fields and the rest above them, and says so when saved.
 */
export function useSettingsForm<V extends object, D, P = V>(opts: SettingsFormOptions<V, D, P>): SettingsForm<V> {
  const { data, toValues, save, payload, saved, onSaved, onError } = opts;
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<V>({ initialValues: opts.initialValues, validate: opts.validate });
  useEffect(() => {
    if (data === undefined) return;
    const v = toValues(data);
    form.setValues(v);
    form.resetDirty(v);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [data]);
  const onSubmit = form.onSubmit((v) => {
    setError(null);
    save.mutate(payload ? payload(v) : (v as unknown as P), {
      onSuccess: () => {
        onSaved?.();
        notifySuccess(saved);
      },
      onError: (err) => setError(onError ? onError(err, form) : applyServerErrors(form, err, t)),
    });
  });
  return { form, error, onSubmit, dirty: form.isDirty() || !!opts.alsoDirty, saving: save.isPending };
}
