import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Indonesian first: it is the school's language. */
export const LANGUAGES = ['id', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'id';
const STORAGE_KEY = 'tatib.language';

export type Catalogue = Record<string, unknown>;

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

/**
 * The common catalogues, in the first download: all the sign-in page and the error pages need.
 * The features' catalogues come later, one chunk per language (./features.<lang>.ts), with the
 * app shell.
 */
export const resources = buildResources(import.meta.glob<Catalogue>('./*.json', { eager: true, import: 'default' }));

/** Each language's feature catalogues, once asked for. */
const loaded = new Map<Language, Promise<void>>();
const chunks: Record<Language, () => Promise<{ featureResources: Resource }>> = {
  id: () => import('./features.id'),
  en: () => import('./features.en'),
};

/**
 * Adds every feature's catalogues in one language (the current one by default); the app shell
 * waits for it (router.tsx). Only the language on screen is downloaded; switching language
 * downloads the other before the switch (setLanguage).
 */
export function loadFeatureCatalogues(lang: Language = currentLanguage()): Promise<void> {
  let p = loaded.get(lang);
  if (!p) {
    p = chunks[lang]().then(
      ({ featureResources }) => {
        for (const [l, namespaces] of Object.entries(featureResources)) {
          for (const [ns, catalogue] of Object.entries(namespaces)) i18n.addResourceBundle(l, ns, catalogue, true, true);
        }
      },
      (err: unknown) => {
        loaded.delete(lang); // a failed download is tried again
        throw err;
      },
    );
    loaded.set(lang, p);
  }
  return p;
}

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
  // Once the app has its feature texts, the new language's come before the switch, so no
  // screen shows bare keys; the sign-in page needs only the common texts.
  if (loaded.size === 0) {
    void i18n.changeLanguage(lang);
    return;
  }
  loadFeatureCatalogues(lang).then(
    () => void i18n.changeLanguage(lang),
    () => void i18n.changeLanguage(lang),
  );
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

export default i18n;
