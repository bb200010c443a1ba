// Accessibility: axe-core (WCAG 2 A/AA, colour contrast included) on every page each role can
// open: in Indonesian at a laptop (1366×768) and a phone (360×740) width, and in English at the
// phone width, where longer English labels wrap or overflow first (axe's rules do not depend on
// the language otherwise, and the English laptop sweep was a quarter of the suite's longest
// case). The pages come from the signed-in navigation
// itself, so a new feature's pages are checked without editing this file; the profile, the 403
// and the 404 pages are added. Each distinct page is swept once per language and width: the
// admin (who opens everything) goes first, and a later role sweeps only its landing page (the
// dashboard shows each role its own figures), the 403 page once, and any page the roles before
// it did not open. Serious and critical violations fail the case; every page swept in Indonesian,
// and any page with a problem, is photographed (a11y-<role>-<lang>-<size>-<page>.png).
// Each role's sweep of one language and width is its own case, so a failure names it and a
// retry runs that sweep alone.
import { axeViolations, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { apiCall, newPage, openUntil, quiet, signIn } from './helpers.mjs';

const SIZES = { laptop: { width: 1366, height: 768 }, phone: { width: 360, height: 740 } };
/** The sweeps: language and width. */
const SWEEPS = [
  ['id', 'laptop'],
  ['id', 'phone'],
  ['en', 'phone'],
];
const PASSWORD = 'a11y-e2e-Rahasia1';
const ROLES = ['admin', 'bk', 'wali_kelas', 'kepala_sekolah', 'other'];
/** Pages already swept, by "lang size path" ("403" for the forbidden page, the same for every role). */
const swept = new Set();

const users = new Map();

/** Creates the role's test user once (the admin is built in). */
async function ensureUser(ctx, role) {
  if (role === 'admin') return { username: 'admin', password: ADMIN_PASSWORD };
  if (users.has(role)) return users.get(role);
  const u = { username: `a11y.${role.replace('_', '')}`, name: `Uji Aksesibilitas ${role}`, role, email: '', phone: '', password: PASSWORD };
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const res = await apiCall(admin, 'POST', '/api/v1/users', u);
  if (res.status !== 201 && res.status !== 409 && res.status !== 422) throw new Error(`create ${role} user: ${res.status} ${JSON.stringify(res.body)}`);
  await admin.context().close();
  users.set(role, u);
  return u;
}

/** Waits until the page has loaded its data and any landing redirect is done: no loader, the network quiet. */
async function settle(page) {
  for (let i = 0; i < 2; i++) {
    await quiet(page);
    await page
      .waitForFunction(
        () =>
          location.pathname !== '/' &&
          !document.getElementById('boot') && // index.html's loading screen
          (location.pathname === '/sign-in' || document.querySelector('main') !== null) &&
          !document.querySelector('.mantine-Loader'),
        undefined,
        { timeout: 10_000 },
      )
      .catch(() => {});
  }
}

/** Where each role lands after signing in (issue 10: each role lands where its work is). */
// The dashboard has figures for whoever may see violations, attendance, letters or early warnings.
const LANDING = { bk: '/dashboard', wali_kelas: '/dashboard', other: '/dashboard' };

function slug(p) {
  return p.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-') || 'home';
}

/**
 * One sweep of one role. The pages it swept count as swept for the roles after it only when it
 * passes: a failed sweep run again (the harness retries a failing case once) must look at the
 * failing page again, not skip it as done.
 */
async function sweep(ctx, role, lang, sizeName) {
  const user = await ensureUser(ctx, role);
  const problems = [];
  const mine = new Set();
  const size = SIZES[sizeName];
  const page = await newPage(ctx, size);
  await quiet(page, 0); // counts requests from here on
  await page.addInitScript((l) => localStorage.setItem('tatib.language', l), lang);
  // Sign-in page once per language and size (the admin run covers it).
  if (role === 'admin') {
    await page.goto('/sign-in');
    await settle(page);
    for (const l of await axeViolations(page)) problems.push(`[${lang} ${sizeName} /sign-in] ${l}`);
    await shot(page, `a11y-sign-in-${lang}-${sizeName}`);
  }
  await page.goto('/sign-in');
  await page.locator('input[name="username"], input[autocomplete="username"]').first().fill(user.username);
  await page.locator('input[type="password"]').first().fill(user.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
  await settle(page);
  if (LANDING[role]) await page.waitForURL((u) => u.pathname === LANDING[role]).catch(() => {});
  const landing = new URL(page.url()).pathname;
  if (LANDING[role] && landing !== LANDING[role]) problems.push(`[${lang} ${sizeName}] ${role} landed on ${landing}, not ${LANDING[role]}`);
  if (role === 'other' && !(await page.getByTestId('dashboard-nothing').waitFor().then(() => true, () => false))) {
    problems.push(`[${lang} ${sizeName}] no welcome for a guest`);
  }
  const nav = await page.$$eval('[data-testid="navbar"] a[href]', (as) => as.map((a) => new URL(a.href).pathname));
  // The 403 page: the roles page for everyone but the admin, who may open everything.
  const extra = ['/profile', '/no-such-page', ...(role === 'admin' ? [] : ['/roles'])];
  const paths = [...new Set([landing, ...nav, ...extra])];
  for (const p of paths) {
    const key = `${lang} ${sizeName} ${p === '/roles' && role !== 'admin' ? '403' : p}`;
    if (p !== landing && (swept.has(key) || mine.has(key))) continue;
    mine.add(key);
    if (p !== landing) {
      await page.goto(p);
      await settle(page);
    }
    const where = `[${lang} ${sizeName} ${p}]`;
    const found = await axeViolations(page);
    for (const l of found) problems.push(`${where} ${l}`);
    if (lang === 'id' || found.length > 0) await shot(page, `a11y-${role}-${lang}-${sizeName}-${slug(p)}`);
  }
  // The user menu, open.
  await openUntil(page.getByTestId('user-menu'), page.getByRole('menu'), `the user menu [${lang} ${sizeName}]`);
  await page.waitForTimeout(400); // the menu fades in; colours are final afterwards
  for (const l of await axeViolations(page)) problems.push(`[${lang} ${sizeName} user menu] ${l}`);
  await page.context().close();
  if (problems.length > 0) throw new Error(`${problems.length} accessibility problems for ${role}:\n${problems.join('\n')}`);
  for (const k of mine) swept.add(k);
}

for (const role of ROLES) {
  for (const [lang, sizeName] of SWEEPS) {
    const language = lang === 'id' ? 'Indonesian' : 'English';
    test(`a11y: every page ${role} can open passes axe (WCAG 2 AA) in ${language} at ${sizeName} width`, (ctx) => sweep(ctx, role, lang, sizeName), {
      timeout: 300_000,
    });
  }
}
