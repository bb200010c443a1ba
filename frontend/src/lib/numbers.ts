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

const decimalFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number with between min and max decimals in the language's style: 1.43 with (1, 1) →
 * "1,4" (id) / "1.4" (en); 93.456 with (0, 1) → "93,5" / "93.5".
 */
export function formatDecimal(value: number, lang: string, min: number, max: number): string {
  if (!Number.isFinite(value)) return String(value);
  const locale = lang.startsWith('en') ? 'en-US' : 'id-ID';
  const key = `${locale}:${min}:${max}`;
  let f = decimalFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
    decimalFormats.set(key, f);
  }
  return f.format(value);
}

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A fraction (0–1) as a percentage with at most one decimal, in the language's style:
 * 0.8734 → "87,3%" (id) / "87.3%" (en). Nothing, or anything not finite, is "—".
 */
export function formatPercent(value: number | null | undefined, lang = 'id'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const locale = lang.startsWith('en') ? 'en-US' : 'id-ID';
  let f = percentFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
    percentFormats.set(locale, f);
  }
  // Intl may put a no-break space before "%" in some locales; keep it tight everywhere.
  return f.format(value).replace(/\s+%/u, '%');
}
