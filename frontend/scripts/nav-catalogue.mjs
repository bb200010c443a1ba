// The side navigation's labels, apart from the features' catalogues: every feature's "nav"
// entry (a string, or an object of strings) in both languages, as one small module,
// `virtual:tatib-nav` = { id: { <feature>: <nav> }, en: { … } }. The app shell needs the
// labels of every feature it lists, but only the catalogue of the page it shows; the rest
// of each catalogue is downloaded with its page (src/i18n/index.ts).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ID = 'virtual:tatib-nav';
const RESOLVED = `\0${ID}`;
const features = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/features');

/** { lang: { feature: nav } } from every src/features/<f>/i18n/<lang>.json that has "nav". */
export function navCatalogues(dir = features) {
  const out = {};
  const files = [];
  for (const feature of readdirSync(dir).sort()) {
    const i18n = path.join(dir, feature, 'i18n');
    if (!existsSync(i18n)) continue;
    for (const file of readdirSync(i18n).sort()) {
      const m = /^([a-z]{2})\.json$/.exec(file);
      if (!m) continue;
      const full = path.join(i18n, file);
      files.push(full);
      const nav = JSON.parse(readFileSync(full, 'utf8')).nav;
      if (nav === undefined) continue;
      (out[m[1]] ??= {})[feature] = nav;
    }
  }
  return { catalogues: out, files };
}

export function navCatalogue() {
  return {
    name: 'tatib-nav-catalogue',
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      const { catalogues, files } = navCatalogues();
      for (const f of files) this.addWatchFile(f);
      return `export default ${JSON.stringify(catalogues)};`;
    },
  };
}
