// End-to-end tests against the real server on a fresh database:
//   TATIB_SERVER_BIN=../bin/tatib-server TATIB_TEST_DATABASE_URL=postgres://…/postgres npm run e2e
// Creates database tatib_e2e_<random>, starts the server on a free port, waits for /readyz,
// runs e2e/cases.mjs in Debian's Chromium, stops the server and drops the database.
// Cases: e2e/cases.mjs first, then every e2e/*.test.mjs in name order (a feature adds its
// own file; each registers cases with harness.mjs's test() and may register afterAll()).
// E2E_ONLY=<part of a case name> runs matching cases only.
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { freePort, need, psql, waitReady } from './helpers.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { launchBrowser, runAfterAll, runAll } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const f of readdirSync(here).filter((n) => n.endsWith('.test.mjs')).sort()) {
  await import(path.join(here, f));
}

async function main() {
  const bin = path.resolve(need('TATIB_SERVER_BIN', 'run.mjs'));
  const adminURL = need('TATIB_TEST_DATABASE_URL', 'run.mjs');
  const dbName = `tatib_e2e_${randomBytes(5).toString('hex')}`;
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
    const log = createWriteStream(path.join(resultsDir, 'e2e-server.log'));
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
    counts = await runAll({ browser, baseURL }, process.env.E2E_ONLY);
  } catch (err) {
    console.log(`# e2e setup failed: ${err?.stack ?? err}`);
  } finally {
    await cleanup();
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed > 0 ? 1 : 0);
}

await main();
