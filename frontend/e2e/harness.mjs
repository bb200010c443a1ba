// A tiny test runner for the end-to-end tests: named async cases run in order, each with
// a time limit; a failing case saves a screenshot; the run ends with "N passed, N failed".
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Screenshots go to <repo>/screenshots (git-ignored) for a person to look at. */
export const SCREENSHOT_DIR = path.resolve(here, '../../screenshots');

const cases = [];
const afterAllHooks = [];
/** The file whose cases are being registered (run.mjs sets it before importing each file). */
let currentFile = 'cases.mjs';

/** Names the file that the next test() calls come from. */
export function registeringFile(name) {
  currentFile = name;
}

/** Registers a clean-up step run once after every case (stop a helper process, …). */
export function afterAll(fn) {
  afterAllHooks.push(fn);
}

/** Runs the clean-up steps; a failing one is reported, never thrown. */
export async function runAfterAll() {
  for (const fn of afterAllHooks.splice(0)) {
    try {
      await fn();
    } catch (err) {
      console.log(`# afterAll failed: ${err?.stack ?? err}`);
    }
  }
}

/** Registers a case: fn({ browser, baseURL, shot }) */
export function test(name, fn, { timeout = 90_000 } = {}) {
  cases.push({ name, fn, timeout, file: currentFile });
}

export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

export function assertEqual(actual, expected, message) {
  if (actual !== expected) throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Saves a full-page screenshot under SCREENSHOT_DIR. */
export async function shot(page, name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Debian's Chromium, headless; `extraArgs` adds switches (a face case's fake camera, …). */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.TATIB_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

function withTimeout(promise, ms, name) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${name}`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * Runs every registered case (or those whose name contains `only`); returns the counts.
 * A failing case is run once more (E2E_RETRIES=0 turns that off): a pass on the second attempt
 * counts as passed but is reported as flaky, with the first attempt's failure printed in full,
 * so a timing-dependent case is seen and mended rather than hidden. The last lines name every
 * failed and flaky case, because CI shows only the end of the log.
 */
export async function runAll(ctx, only, files) {
  // only: parts of case names, | between alternatives ("violations:|journal:").
  let selected = only ? cases.filter((c) => only.split('|').some((o) => o && c.name.includes(o))) : cases;
  if (files) selected = selected.filter((c) => files.has(c.file));
  const attempts = 1 + Math.max(0, Number(process.env.E2E_RETRIES ?? 1) || 0);
  let passed = 0;
  let failed = 0;
  const failedNames = [];
  const flakyNames = [];
  console.log(`1..${selected.length}`);
  for (const [i, c] of selected.entries()) {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const started = Date.now();
      const pages = [];
      const track = (p) => (pages.push(p), p);
      try {
        await withTimeout(c.fn({ ...ctx, track }), c.timeout, c.name);
        passed++;
        if (attempt > 1) flakyNames.push(c.name);
        console.log(`ok ${i + 1} - ${c.name} (${Date.now() - started} ms${attempt > 1 ? `, attempt ${attempt}: FLAKY` : ''})`);
        break;
      } catch (err) {
        const last = attempt === attempts;
        console.log(`${last ? 'not ok' : '# failed, will retry:'} ${i + 1} - ${c.name} (${Date.now() - started} ms, attempt ${attempt})`);
        console.log(String(err?.stack ?? err).split('\n').map((l) => `  # ${l}`).join('\n'));
        for (const [n, p] of pages.entries()) {
          try {
            await shot(p, `FAILED-${c.name.replace(/[^a-z0-9]+/gi, '-')}-${attempt}-${n}`);
          } catch {
            /* the page may be gone */
          }
        }
        if (last) {
          failed++;
          failedNames.push(c.name);
        }
      } finally {
        for (const p of pages) await p.context().close().catch(() => {});
      }
    }
  }
  for (const n of flakyNames) console.log(`# flaky (passed on a second attempt): ${n}`);
  for (const n of failedNames) console.log(`# failed: ${n}`);
  return { passed, failed };
}

const AXE_SOURCE = path.resolve(here, '../node_modules/axe-core/axe.min.js');
let axeSource = null;

/**
 * Runs axe-core (WCAG 2 A and AA rules, colour contrast included) on the page as it is and
 * returns the serious and critical violations as short lines ("rule: target — summary").
 */
export async function axeViolations(page) {
  axeSource ??= await readFile(AXE_SOURCE, 'utf8');
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }));
  });
  const lines = [];
  for (const v of result) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    for (const n of v.nodes) lines.push(`${v.id} (${v.impact}): ${n.target} — ${n.summary.replace(/\s+/g, ' ').slice(0, 240)}`);
  }
  return lines;
}

/** Fails when axe finds a serious or critical WCAG 2 A/AA violation on the page; `name` says where. */
export async function checkA11y(page, name) {
  // Let transitions (menus, notifications fading in) settle so colours are final.
  await page.waitForTimeout(250);
  const lines = await axeViolations(page);
  if (lines.length > 0) throw new Error(`accessibility (${name}):\n  ${lines.join('\n  ')}`);
}
