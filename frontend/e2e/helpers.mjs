// Helpers shared by the end-to-end case files: pages, sign-in, visibility and layout checks.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { assert } from './harness.mjs';

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 360, height: 740 };

/** A fresh browser context (own cookies) in Indonesian, on a UTC clock so Jakarta dates show. */
export async function newPage({ browser, baseURL, track }, viewport = DESKTOP) {
  const context = await browser.newContext({ baseURL, viewport, locale: 'id-ID', timezoneId: 'UTC', acceptDownloads: true });
  context.setDefaultTimeout(15_000);
  return track(await context.newPage());
}

const inflight = new WeakMap();

/**
 * Resolves once no request of the page has been in flight for `ms` (WebSockets aside): what
 * Playwright's 'networkidle' checks, with a window a third as long. Requests are counted from
 * the first call for a page on, so call it (or signIn) before the navigation it waits for.
 */
export async function quiet(page, ms = 150, timeout = 10_000) {
  let s = inflight.get(page);
  if (!s) {
    s = { n: 0, last: Date.now() };
    const done = () => {
      s.n = Math.max(0, s.n - 1);
      s.last = Date.now();
    };
    page.on('request', () => {
      s.n++;
      s.last = Date.now();
    });
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    inflight.set(page, s);
  }
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    const idle = s.n === 0 ? Date.now() - s.last : 0;
    if (idle >= ms) return;
    await new Promise((r) => setTimeout(r, s.n === 0 ? ms - idle : 25));
  }
}

/** Signs in through the form and waits to leave the sign-in page. */
export async function signIn(page, username, password) {
  await quiet(page, 0); // counts requests from here on
  await page.goto('/sign-in');
  await page.getByLabel('Nama pengguna').fill(username);
  await page.getByLabel('Kata sandi', { exact: false }).first().fill(password);
  await page.getByRole('button', { name: 'Masuk' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
  // The dashboard sends each role to where its work is once /auth/me and the shell have
  // loaded; a click made before that redirect would be overtaken by it.
  await quiet(page, 250);
}

export async function expectVisible(locator, what) {
  try {
    await locator.first().waitFor({ state: 'visible' });
  } catch (err) {
    throw new Error(`not visible: ${what}\n${err.message}`, { cause: err });
  }
}

/**
 * Clicks trigger until target (a dropdown's option, a menu) is visible, at most three times: on a
 * loaded machine a click can land while the component is re-rendering with data that just arrived,
 * and the dropdown it opened closes with it (seen on a select and on the user menu).
 */
export async function openUntil(trigger, target, what) {
  for (let i = 1; ; i++) {
    await trigger.click();
    try {
      await target.first().waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch (err) {
      if (i === 3) throw new Error(`not opened after 3 clicks: ${what}\n${err.message}`, { cause: err });
    }
  }
}

export async function noSidewaysScroll(page, where) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `${where}: page scrolls sideways by ${overflow}px`);
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Calls the API from inside the signed-in page (same origin, the session cookie), as the app
 * would; url is the full path ('/api/v1/...'). Answers { status, body } with body parsed JSON.
 */
export async function apiCall(page, method, url, body) {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u, {
        method: m,
        headers: b ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
        body: b ? JSON.stringify(b) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    [method, url, body],
  );
}

/** The environment variable name, or exit 2 saying which script needs it (see its header). */
export function need(name, script) {
  const v = process.env[name];
  if (!v) {
    console.error(`${script}: ${name} is not set (see the comment at the top of e2e/${script})`);
    process.exit(2);
  }
  return v;
}

/** Runs one SQL statement with psql, stopping on error. */
export function psql(url, sql) {
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A psql runner for one database: (sql) → its output, unaligned; `.url` is the database's URL. */
export function sqlRunner(url) {
  const run = (sql) => execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { encoding: 'utf8' }).trim();
  run.url = url;
  return run;
}

/**
 * This run's database: the tatib_e2e_* one whose `username` has `userId` (the e2e runner
 * makes one database per run; a case file that seeds rows finds it through a user it created).
 */
export function databaseOf(username, userId) {
  const admin = sqlRunner(process.env.TATIB_TEST_DATABASE_URL);
  // run.mjs names its database; a file run some other way searches every e2e database.
  const dbs = process.env.TATIB_E2E_DATABASE
    ? [process.env.TATIB_E2E_DATABASE]
    : admin("SELECT datname FROM pg_database WHERE datname LIKE 'tatib_e2e_%'").split('\n').filter(Boolean);
  for (const db of dbs) {
    const url = new URL(admin.url);
    url.pathname = `/${db}`;
    const sql = sqlRunner(url.toString());
    try {
      if (sql(`SELECT id FROM users WHERE username = '${username}'`) === String(userId)) return sql;
    } catch {
      /* another run's database, gone or not migrated yet */
    }
  }
  throw new Error(`no e2e database holds ${username}`);
}

/** Waits until the server answers /readyz, failing early when it exits. */
export async function waitReady(baseURL, server, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(`${baseURL}/readyz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready after ${ms} ms`);
}
