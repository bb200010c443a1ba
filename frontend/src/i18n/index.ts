import i18n, { type BackendModule, type Resource } from 'i18next';
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
 * The features' catalogues come later, one chunk per feature and language (below).
 */
export const resources = buildResources(import.meta.glob<Catalogue>('./*.json', { eager: true, import: 'default' }));

/**
 * Each feature's catalogue in each language, a chunk of its own, downloaded when a screen
 * first asks for its namespace (`useTranslation('violations')` suspends until it is here).
 * A page's namespace is asked for together with the page's code (registry.ts), and once the
 * first screen is up the rest of the language follows while the browser is idle, so opening
 * another feature's dialog later does not wait for its texts.
 */
const featureLoaders: Record<string, () => Promise<Catalogue>> = import.meta.glob<Catalogue>('../features/*/i18n/*.json', { import: 'default' });

/** The namespaces that have a catalogue: every feature folder with an i18n/ folder. */
export const FEATURE_NAMESPACES: readonly string[] = [
  ...new Set(Object.keys(featureLoaders).map((f) => /features\/([^/]+)\/i18n\//.exec(f)?.[1] ?? '')),
].filter(Boolean);

/** i18next's backend: a feature namespace's catalogue from its chunk; "common" and "nav" are bundled. */
const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lang, ns, done) {
    const load = featureLoaders[`../features/${ns}/i18n/${lang}.json`];
    if (!load) {
      done(null, {});
      return;
    }
    load().then(
      (catalogue) => done(null, catalogue),
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

/**
 * The side navigation's labels of every feature in both languages (namespace "nav", about a
 * kilobyte): the shell lists every feature before any of their catalogues is downloaded.
 * A nav item's key "violations:nav" reads "nav:violations.nav".
 */
export async function loadNavCatalogue(): Promise<void> {
  const { default: catalogues } = await import('virtual:tatib-nav');
  for (const [lang, byFeature] of Object.entries(catalogues)) {
    const nav = Object.fromEntries(Object.entries(byFeature).map(([feature, v]) => [feature, { nav: v }]));
    i18n.addResourceBundle(lang, 'nav', nav, true, true);
  }
}

/** The key of a nav item's label: "violations:nav.list" → "nav:violations.nav.list". */
export function navLabelKey(labelKey: string): string {
  const i = labelKey.indexOf(':');
  return i < 0 ? labelKey : `nav:${labelKey.slice(0, i)}.${labelKey.slice(i + 1)}`;
}

/**
 * Downloads namespaces' catalogues in the language on screen (and Indonesian, the fallback)
 * without waiting for them: a page starts this beside its own code.
 */
export function preloadNamespaces(namespaces: readonly string[]): void {
  const missing = namespaces.filter((ns) => !i18n.hasLoadedNamespace(ns));
  if (missing.length > 0) void i18n.loadNamespaces(missing).catch(() => undefined);
}

/**
 * Every feature's catalogue in the language on screen; the shell calls it a few seconds after
 * its first page showed, when the browser is idle (small requests, cached like any chunk).
 */
export function preloadAllNamespaces(): void {
  preloadNamespaces(FEATURE_NAMESPACES);
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

void i18n.use(chunkBackend).use(initReactI18next).init({
  resources,
  // The bundled catalogues (common) are used as they are; feature namespaces come from the backend.
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ['common'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  // The bundled catalogues are there at once: the first render needs no suspense.
  initAsync: false,
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
  // i18next downloads the new language's catalogues of every namespace in use before it
  // switches, so no screen shows bare keys.
  void i18n.changeLanguage(lang);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

export default i18n;
