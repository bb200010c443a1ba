// What a first visit downloads, from the build manifest: per file raw / gzip / brotli bytes
// for the sign-in page, a homeroom teacher's first screen (the dashboard), and the family
// portal's sign-in page and a guardian's home (ortu.html, its own entry), with the totals
// against their budgets. `--check` exits 1 when a screen's gzip total is over its budget.
// Gzip is what the budget counts: browsers offer brotli only over HTTPS, and a school's
// server on its own network is often plain HTTP.
// Usage: node scripts/bundle-size.mjs [--check] [--json] [dist]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotli, gzip } from './compress.mjs';

/** The sign-in page's budget, compressed, in bytes (issue 10: under 250 kB). */
export const SIGN_IN_BUDGET = 250_000;

/** A homeroom teacher's first screen (the shell and the dashboard), compressed (issue 24: ≤ 250 kB). */
export const HOMEROOM_BUDGET = 250_000;

/** The family portal's first screen, compressed (issue 26: ≤ 150 kB on a guardian's phone). */
export const PORTAL_BUDGET = 150_000;

/** Each screen's budget, gzip bytes. */
export const BUDGETS = { 'sign-in': SIGN_IN_BUDGET, homeroom: HOMEROOM_BUDGET, portal: PORTAL_BUDGET, 'portal-home': PORTAL_BUDGET };

/** The family portal's entry and its lazily loaded pages (docs/portal.md). */
const PORTAL_ENTRY = 'ortu.html';

/**
 * The family portal's own build (vite.portal.config.ts: ortu.html on Preact, into the same
 * dist/) has its own manifest; a build of both pages in one (before it) has only manifest.json.
 */
const PORTAL_MANIFEST = '.vite/manifest-ortu.json';

/** The build manifest a screen's files are named in: the portal's own for its screens. */
export function manifestFor(dist, screen) {
  const own = path.join(dist, PORTAL_MANIFEST);
  const file = screen.startsWith('portal') && existsSync(own) ? own : path.join(dist, '.vite/manifest.json');
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The screens a first visit can land on, as manifest keys of what they load (the page first). */
export const SCREENS = {
  // index.html runs src/early.ts, an entry of its own, before the app (scripts/early-preload.mjs).
  'sign-in': ['index.html', 'src/early.ts'],
  // A homeroom teacher's home is the dashboard: the first download (which holds the shell and
  // the dashboard page: src/app/router.tsx), the navigation's labels and the Indonesian
  // catalogues of the namespaces its route names (src/features/dashboard/index.tsx).
  homeroom: [
    'index.html',
    'src/early.ts',
    'virtual:tatib-nav',
    ...['dashboard', 'violation-source'].map((ns) => `src/features/${ns}/i18n/id.json`),
  ],
  // A guardian opening /ortu: the portal's own page, with the sign-in form (its catalogue is in
  // the entry); and once signed in, the home page (the list of their children).
  portal: [PORTAL_ENTRY],
  'portal-home': [PORTAL_ENTRY, 'src/features/portal/ortu/HomePage.tsx'],
};

function sizeOf(dist, file) {
  const buf = readFileSync(path.join(dist, file));
  // The precompressed files are what the server sends; compute only if a build lacks them.
  const variant = (ext, fn) => {
    const p = path.join(dist, file + ext);
    return existsSync(p) ? readFileSync(p).length : Math.min(fn(buf).length, buf.length);
  };
  return { file, raw: buf.length, gzip: variant('.gz', gzip), brotli: variant('.br', brotli) };
}

/** Every file that loading `keys` fetches: index.html, chunks, their static imports, CSS. */
export function filesFor(manifest, keys) {
  const page = keys.find((k) => k.endsWith('.html')) ?? 'index.html';
  const out = new Set([page, 'favicon.svg']);
  // A dynamic entry that other chunks also import (the shell: the deferred user menu imports
  // its button) is keyed by its chunk name, "_Shell-<hash>.js", not by its source path.
  const byName = (key) => {
    const name = path.basename(key).replace(/\.[^.]+$/, '');
    return Object.entries(manifest).find(([k, v]) => k.startsWith(`_${name}-`) && v.isDynamicEntry)?.[1];
  };
  const visit = (key) => {
    const m = manifest[key] ?? byName(key);
    if (!m) throw new Error(`bundle-size: ${key} is not in the build manifest`);
    if (out.has(m.file) && !key.endsWith('.html')) return;
    out.add(m.file);
    for (const c of m.css ?? []) out.add(c);
    for (const a of m.assets ?? []) out.add(a);
    for (const i of m.imports ?? []) visit(i);
  };
  for (const k of keys) visit(k);
  return [...out];
}

export function report(dist) {
  const screens = {};
  for (const [name, keys] of Object.entries(SCREENS)) {
    const files = filesFor(manifestFor(dist, name), keys)
      .filter((f) => existsSync(path.join(dist, f)))
      .map((f) => sizeOf(dist, f));
    const total = { raw: 0, gzip: 0, brotli: 0 };
    for (const f of files) for (const k of Object.keys(total)) total[k] += f[k];
    screens[name] = { files, total };
  }
  return screens;
}

const kb = (n) => (n / 1000).toFixed(1).padStart(8);

export function printReport(screens) {
  for (const [name, { files, total }] of Object.entries(screens)) {
    console.log(`\n${name}: what the first screen downloads (kB)`);
    console.log(`${'file'.padEnd(48)}${'raw'.padStart(8)}${'gzip'.padStart(8)}${'brotli'.padStart(8)}`);
    for (const f of [...files].sort((a, b) => b.raw - a.raw)) {
      console.log(`${f.file.padEnd(48)}${kb(f.raw)}${kb(f.gzip)}${kb(f.brotli)}`);
    }
    console.log(`${'total'.padEnd(48)}${kb(total.raw)}${kb(total.gzip)}${kb(total.brotli)}`);
    const budget = BUDGETS[name];
    console.log(`budget ${budget / 1000} kB: gzip ${((100 * total.gzip) / budget).toFixed(0)}%, brotli ${((100 * total.brotli) / budget).toFixed(0)}%`);
  }
}

/**
 * Mantine classes the first download's JavaScript uses but its CSS lacks: main.tsx (and the
 * portal's portal-main.tsx) import Mantine's styles per component, so a component added to a
 * sign-in page needs its sheet. `screen` names the entry (SCREENS), or `files` lists them.
 */
export function unstyledMantineClasses(dist, files = filesFor(JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')), SCREENS['sign-in'])) {
  const read = (ext) =>
    files
      .filter((f) => f.endsWith(ext))
      .map((f) => readFileSync(path.join(dist, f), 'utf8'))
      .join('\n');
  const mantineCSS = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/@mantine/core/styles.css'), 'utf8');
  const known = new Set(mantineCSS.match(/\bm_[0-9a-z]{6,8}\b/g));
  const css = new Set(read('.css').match(/\bm_[0-9a-z]{6,8}\b/g));
  const used = new Set(read('.js').match(/\bm_[0-9a-z]{6,8}\b/g));
  return [...used].filter((c) => known.has(c) && !css.has(c)).sort();
}

/** The dynamic entries the family portal's page can load (its pages, their dialogs, catalogues). */
export function portalChunks(manifest) {
  const seen = new Set();
  const visit = (key) => {
    const m = manifest[key];
    if (!m || seen.has(key)) return;
    seen.add(key);
    for (const i of [...(m.imports ?? []), ...(m.dynamicImports ?? [])]) visit(i);
  };
  visit(PORTAL_ENTRY);
  return new Set([...seen].filter((k) => manifest[k].isDynamicEntry));
}

/**
 * Lazily loaded chunks (pages, dialogs) that use a Mantine class no sheet loaded with them
 * defines: the entry's (which holds the shell's, app/shellStyles.ts), and their own imports'.
 * A chunk the family portal loads is checked against the portal's entry (ortu.html), which
 * has no shell; a chunk both apps load is checked against each.
 */
export function unstyledChunks(dist) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  // The shell and its sheets are in the entry (src/app/router.tsx).
  const shell = ['index.html'];
  const portal = manifest[PORTAL_ENTRY] ? portalChunks(manifest) : new Set();
  const out = [];
  for (const [key, m] of Object.entries(manifest)) {
    if (!m.isDynamicEntry || !m.file.endsWith('.js')) continue;
    // The shell's own chunks load with it; the kiosk and the public pages load the shell's sheets themselves.
    const contexts = portal.has(key) ? [[PORTAL_ENTRY]] : [];
    if (!portal.has(key) || reachable(manifest, 'index.html', key)) contexts.push(shell);
    const classes = [...new Set(contexts.flatMap((ctx) => unstyledMantineClasses(dist, filesFor(manifest, [...ctx, key]))))].sort();
    if (classes.length > 0) out.push({ key: portal.has(key) ? `${key} (family portal)` : key, classes });
  }
  // The portal's own build: each of its lazy chunks after the portal's entry.
  if (existsSync(path.join(dist, PORTAL_MANIFEST))) {
    const own = manifestFor(dist, 'portal');
    for (const key of portalChunks(own)) {
      if (!own[key].file.endsWith('.js')) continue;
      const classes = unstyledMantineClasses(dist, filesFor(own, [PORTAL_ENTRY, key]));
      if (classes.length > 0) out.push({ key: `${key} (family portal)`, classes });
    }
  }
  return out;
}

/** Whether loading `from` can (statically or lazily) load `key`. */
function reachable(manifest, from, key) {
  const seen = new Set();
  const stack = [from];
  while (stack.length > 0) {
    const k = stack.pop();
    if (k === key) return true;
    if (seen.has(k) || !manifest[k]) continue;
    seen.add(k);
    stack.push(...(manifest[k].imports ?? []), ...(manifest[k].dynamicImports ?? []));
  }
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dist = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(here, '../dist'));
  const screens = report(dist);
  if (args.includes('--json')) console.log(JSON.stringify(screens));
  else printReport(screens);
  if (args.includes('--check')) {
    const got = screens['sign-in'].total.gzip;
    if (got > SIGN_IN_BUDGET) {
      console.error(`\nFAIL: the sign-in page is ${(got / 1000).toFixed(1)} kB gzipped, over the ${SIGN_IN_BUDGET / 1000} kB budget`);
      process.exit(1);
    }
    const home = screens.homeroom.total.gzip;
    if (home > HOMEROOM_BUDGET) {
      console.error(`\nFAIL: a homeroom teacher's first screen is ${(home / 1000).toFixed(1)} kB gzipped, over the ${HOMEROOM_BUDGET / 1000} kB budget (issue 24)`);
      process.exit(1);
    }
    for (const name of ['portal', 'portal-home']) {
      const n = screens[name].total.gzip;
      const what = `the family portal's ${name === 'portal' ? 'sign-in page' : 'home page'} is ${(n / 1000).toFixed(1)} kB gzipped`;
      if (n > PORTAL_BUDGET) {
        console.error(`\nFAIL: ${what}, over issue 26's ${PORTAL_BUDGET / 1000} kB budget (docs/portal.md, "What a guardian downloads")`);
        process.exit(1);
      }
    }
    const unstyled = unstyledMantineClasses(dist);
    if (unstyled.length > 0) {
      console.error(`\nFAIL: the sign-in page uses Mantine classes without their styles (import its sheet in src/main.tsx, or keep the component out of the first download): ${unstyled.join(' ')}`);
      process.exit(1);
    }
    const portalUnstyled = unstyledMantineClasses(dist, filesFor(manifestFor(dist, 'portal'), SCREENS.portal));
    if (portalUnstyled.length > 0) {
      console.error(`\nFAIL: the family portal's sign-in page uses Mantine classes without their styles (import its sheet in src/portal-main.tsx): ${portalUnstyled.join(' ')}`);
      process.exit(1);
    }
    // Every lazily loaded chunk, with what is loaded before it (the entry, the shell and its
    // sheets) and what it imports itself: the Mantine classes it uses have their styles.
    const missing = unstyledChunks(dist);
    if (missing.length > 0) {
      for (const { key, classes } of missing) console.error(`FAIL: ${key} uses Mantine classes without their styles: ${classes.join(' ')}`);
      console.error(`\nImport '@/app/pageStyles' in those modules (or the component's sheet in src/app/pageStyles.ts); for the family portal's, './pageStyles' (features/portal/ortu/pageStyles.ts).`);
      process.exit(1);
    }
    console.log(`\nok: the sign-in page is ${(got / 1000).toFixed(1)} kB gzipped, a homeroom teacher's first screen ${(home / 1000).toFixed(1)} kB (budgets ${SIGN_IN_BUDGET / 1000} kB each)`);
    console.log(`ok: the family portal's sign-in page is ${(screens.portal.total.gzip / 1000).toFixed(1)} kB gzipped, a guardian's home ${(screens['portal-home'].total.gzip / 1000).toFixed(1)} kB (budget ${PORTAL_BUDGET / 1000} kB)`);
  }
}
