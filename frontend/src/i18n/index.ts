import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Indonesian first: it is the school's language. */
export const LANGUAGES = ['id', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'id';
const STORAGE_KEY = 'tatib.language';

type Catalogue = Record<string, unknown>;

/**
 * Builds i18next resources from catalogue files: `./<lang>.json` is the "common"
 * namespace; `../features/<f>/i18n/<lang>.json` is namespace <f>.
 */
export function buildResources(files: Record<string, Catalogue>): Resource {
  const res: Resource = {};
  for (const [file, catalogue] of Object.entries(files)) {
    const feature = /features\/([^/]+)\/i18n\/([a-z]{2})\.json$/.exec(file);
    const common = /^\.\/([a-z]{2})\.json$/.exec(file);
    const [ns, lang] = feature ? [feature[1]!, feature[2]!] : common ? ['common', common[1]!] : [];
    if (!ns || !lang) continue;
    res[lang] ??= {};
    res[lang][ns] = catalogue;
  }
  return res;
}

const files = {
  ...import.meta.glob<Catalogue>('./*.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Catalogue>('../features/*/i18n/*.json', { eager: true, import: 'default' }),
};
export const resources = buildResources(files);

function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

function storedLanguage(): Language {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: Object.keys(resources[DEFAULT_LANGUAGE] ?? { common: {} }),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

/** Switches the language and remembers it on this device. */
export function setLanguage(lang: Language): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    /* private mode: the choice lasts this visit */
  }
  void i18n.changeLanguage(lang);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

export default i18n;
