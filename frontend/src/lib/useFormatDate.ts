import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, type DateInput, type DateStyle } from './dates';

/** formatDate bound to the current language: `const fmt = useFormatDate(); fmt(u.created_at, 'dateTime')`. */
export function useFormatDate() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useCallback((value: DateInput | null | undefined, style: DateStyle = 'date') => formatDate(value, style, lang), [lang]);
}
