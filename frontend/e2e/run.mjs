// End-to-end tests against the real server on a fresh database:
//   TATIB_SERVER_BIN=../bin/tatib-server TATIB_TEST_DATABASE_URL=postgres://…/postgres npm run e2e
// Creates database tatib_e2e_<random>, starts the server on a free port, waits for /readyz,
// runs e2e/cases.mjs in Debian's Chromium, stops the server and drops the database.
// Cases: e2e/cases.mjs first, then every e2e/*.test.mjs in name order (a feature adds its
// own file; each registers cases with harness.mjs's test() and may register afterAll()).
// E2E_ONLY=<part of a case name> runs matching cases only (| between alternatives).
// E2E_WORKERS=2 runs the files in two worker processes at once, each with its own server,
// database and browser (`make test-e2e` does); files go to workers by their weight below.
// A failing case runs once more (E2E_RETRIES=0: never); a pass then is reported as FLAKY with
// the first failure printed, and the last lines list every flaky and failed case.
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { freePort, need, psql, waitReady } from './helpers.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { launchBrowser, registeringFile, runAfterAll, runAll } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FILES = ['cases.mjs', ...readdirSync(here).filter((n) => n.endsWith('.test.mjs')).sort()];

// Seconds each file took in a clean-clone run on 2 cores, alone (a new file counts 60 until
// measured). Only the split between workers depends on them, never what runs.
const WEIGHTS = {
  'a11y.test.mjs': 190,
  'face.test.mjs': 180,
  'parent-messages.test.mjs': 80,
  'attendance.test.mjs': 80,
  'violation-types.test.mjs': 70,
  'school.test.mjs': 70,
  'cases.mjs': 60,
  'violations.test.mjs': 60,
  'cases.test.mjs': 50,
  'warning-letters.test.mjs': 60,
  'data-safety.test.mjs': 60,
  'users-roles.test.mjs': 50,
  'notifications.test.mjs': 50,
  'dashboard.test.mjs': 40,
  'attendance-recap.test.mjs': 40,
  'audit.test.mjs': 30,
  'backups.test.mjs': 30,
  'early-warnings.test.mjs': 25,
  'parent-contact.test.mjs': 25,
  'portal.test.mjs': 30,
  'academic-year.test.mjs': 20,
  'journal.test.mjs': 20,
  'reports.test.mjs': 20,
  'achievements.test.mjs': 40,
};

/** The files of worker `shard` of `workers`: the heaviest first, each to the lightest worker. */
export function shardFiles(files, shard, workers) {
  const load = Array(workers).fill(0);
  const mine = new Set();
  const byWeight = [...files].sort((a, b) => (WEIGHTS[b] ?? 60) - (WEIGHTS[a] ?? 60) || a.localeCompare(b));
  for (const f of byWeight) {
    const w = load.indexOf(Math.min(...load));
    load[w] += WEIGHTS[f] ?? 60;
    if (w === shard) mine.add(f);
  }
  return mine;
}

const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 1) || 1);
const shard = process.env.E2E_SHARD === undefined ? null : Number(process.env.E2E_SHARD);
const myFiles = shard === null ? new Set(FILES) : shardFiles(FILES, shard, workers);
for (const f of FILES) {
  if (f === 'cases.mjs' || !myFiles.has(f)) continue;
  registeringFile(f);
  await import(path.join(here, f));
}

/** Runs the workers as child processes, prefixes their lines, and adds up their counts. */
async function runWorkers() {
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: workers }, (_, i) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
          env: { ...process.env, E2E_SHARD: String(i) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let last = '';
        let buf = '';
        const summary = [];
        const onData = (chunk) => {
          buf += chunk;
          const lines = buf.split('\n');
          buf = lines.pop();
          for (const l of lines) {
            if (/^\d+ passed, \d+ failed$/.test(l)) last = l;
            else console.log(`[w${i + 1}] ${l}`);
            if (/^# (flaky|failed)/.test(l)) summary.push(`[w${i + 1}] ${l}`);
          }
        };
        child.stdout.setEncoding('utf8').on('data', onData);
        child.stderr.setEncoding('utf8').on('data', onData);
        child.on('exit', (code) => {
          const m = /^(\d+) passed, (\d+) failed$/.exec(last);
          const counts = m ? { passed: Number(m[1]), failed: Number(m[2]) + (code !== 0 && m[2] === '0' ? 1 : 0) } : { passed: 0, failed: 1 };
          resolve({ ...counts, summary });
        });
      }),
    ),
  );
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`# ${workers} workers in ${Math.round((Date.now() - started) / 1000)} s`);
  // Again at the end: CI shows only the last lines of the log.
  for (const r of results) for (const l of r.summary) console.log(l);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

async function main() {
  const bin = path.resolve(need('TATIB_SERVER_BIN', 'run.mjs'));
  const adminURL = need('TATIB_TEST_DATABASE_URL', 'run.mjs');
  const dbName = `tatib_e2e_${randomBytes(5).toString('hex')}`;
  process.env.TATIB_E2E_DATABASE = dbName;
  const dbURL = new URL(adminURL);
  dbURL.pathname = `/${dbName}`;

  const resultsDir = path.resolve(here, '../test-results');
  await mkdir(resultsDir, { recursive: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tatib-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;

  let server;
  let browser;
  const cleanup = async () => {
    await runAfterAll();
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => (server.kill('SIGKILL'), r()), 10_000);
        server.once('exit', () => (clearTimeout(t), r()));
      });
    }
    try {
      psql(adminURL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    } catch (err) {
      console.error(`e2e: could not drop ${dbName}: ${err.message}`);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => void cleanup().finally(() => process.exit(130)));
  }

  let counts = { passed: 0, failed: 1 };
  try {
    psql(adminURL, `CREATE DATABASE ${dbName}`);
    const log = createWriteStream(path.join(resultsDir, shard === null ? 'e2e-server.log' : `e2e-server-w${shard + 1}.log`));
    server = spawn(bin, ['serve'], {
      env: {
        ...process.env,
        DATABASE_URL: dbURL.toString(),
        TATIB_ADDR: `127.0.0.1:${port}`,
        TATIB_ADMIN_PASSWORD: ADMIN_PASSWORD,
        TATIB_DEMO: '0',
        TATIB_DATA_DIR: dataDir,
        // The school cases point the student-affairs integration at a simulator on 127.0.0.1.
        TATIB_ALLOW_LOCAL_SOURCES: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout.pipe(log);
    server.stderr.pipe(log);
    await waitReady(baseURL, server);
    console.log(`# server ${bin} on ${baseURL}, database ${dbName}`);
    browser = await launchBrowser();
    counts = await runAll({ browser, baseURL }, process.env.E2E_ONLY, myFiles);
  } catch (err) {
    console.log(`# e2e setup failed: ${err?.stack ?? err}`);
  } finally {
    await cleanup();
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed > 0 ? 1 : 0);
}

if (workers > 1 && shard === null) await runWorkers();
else await main();
