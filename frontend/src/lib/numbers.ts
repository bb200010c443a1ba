import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A count with the language's separators: "1.200" in Indonesian, "1,200" in English.
 * Anything that is not a finite number is shown as it is.
 */
export function formatNumber(value: number, lang = 'id'): string {
  if (!Number.isFinite(value)) return String(value);
  const locale = lang.startsWith('en') ? 'en-US' : 'id-ID';
  let f = formatters.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    formatters.set(locale, f);
  }
  return f.format(value);
}

/** formatNumber bound to the current language: `const num = useFormatNumber(); num(meta.total)`. */
export function useFormatNumber() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useCallback((value: number) => formatNumber(value, lang), [lang]);
}
