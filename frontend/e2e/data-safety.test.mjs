// End-to-end cases for the selective reset (issue 17, Settings → Data). A reset empties whole
// tables, so these cases run on a server and database of their own (the shared one keeps the
// data later cases rely on): the same binary, a fresh database, a small school put in with psql.
// Only these: E2E_ONLY=reset npm run e2e
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { apiCall, expectVisible, freePort, newPage, psql, signIn, waitReady } from './helpers.mjs';

const SCHOOL = 'SMA Negeri 9 Contoh';

/** A server of the case's own on a fresh database; stop() ends it and drops the database. */
async function ownServer() {
  const adminURL = process.env.TATIB_TEST_DATABASE_URL;
  const dbName = `tatib_e2e_reset_${randomBytes(4).toString('hex')}`;
  const dbURL = new URL(adminURL);
  dbURL.pathname = `/${dbName}`;
  psql(adminURL, `CREATE DATABASE ${dbName}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tatib-e2e-reset-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn(path.resolve(process.env.TATIB_SERVER_BIN), ['serve'], {
    env: {
      ...process.env,
      DATABASE_URL: dbURL.toString(),
      TATIB_ADDR: `127.0.0.1:${port}`,
      TATIB_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TATIB_DEMO: '0',
      TATIB_DATA_DIR: dataDir,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => (server.kill('SIGKILL'), r()), 10_000);
        server.once('exit', () => (clearTimeout(t), r()));
      });
    }
    psql(adminURL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(baseURL, server);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, dbURL: dbURL.toString(), stop };
}

/**
 * A small school: 3 students, 3 violations (one handled), 2 days of attendance, the admin's
 * notifications; the SP ladder deleted (an admin removed it), so the reset brings it back.
 */
function seed(dbURL) {
  psql(
    dbURL,
    `INSERT INTO settings (key, value) VALUES ('school', '{"name": "${SCHOOL}"}') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
     WITH d AS (INSERT INTO departments (code, name) VALUES ('IPA', 'Ilmu Pengetahuan Alam') RETURNING id),
     c AS (INSERT INTO classes (name, grade, department_id) SELECT 'X IPA 1', 10, id FROM d RETURNING id)
     INSERT INTO students (source_id, full_name, class_id) SELECT n, 'Siswa Reset ' || n, c.id FROM c, generate_series(1, 3) n;
     INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points)
       SELECT s.id, s.class_id, 'X IPA 1', t.id, now(), current_date, t.points FROM students s, violation_types t WHERE t.slug = 'terlambat';
     INSERT INTO handlings (violation_id, handling_type_id, handled_on)
       SELECT min(v.id), min(h.id), current_date FROM violations v, handling_types h;
     INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal)
       SELECT s.id, current_date - d, h, 'H', false FROM students s, generate_series(0, 1) d, generate_series(1, 2) h;
     INSERT INTO attendance_days (student_id, date, h) SELECT s.id, current_date - d, 2 FROM students s, generate_series(0, 1) d;
     INSERT INTO notifications (user_id, kind, url, violation_id) SELECT u.id, 'violation', '/violations/' || v.id, v.id FROM users u, violations v;
     DELETE FROM sp_thresholds;`,
  );
}

test('reset: a wrong school name is refused at its field; the admin resets violations and attendance, sees them at 0, the defaults back and the audit entry', async (ctx) => {
  const own = await ownServer();
  try {
    seed(own.dbURL);
    const page = await newPage({ ...ctx, baseURL: own.baseURL });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/settings/data');
    const panel = page.getByTestId('reset-section');
    await expectVisible(panel, 'the reset section');
    await expectVisible(panel.getByTestId('reset-backup-offer'), 'the backup offer on top');
    assert((await panel.getByTestId('reset-last-backup').innerText()).includes('Belum ada cadangan'), 'no backup yet is said');
    await expectVisible(panel.getByRole('button', { name: 'Unduh cadangan dulu' }), 'the backup-first button');

    const count = async (id) => (await panel.getByTestId(`reset-count-${id}`).textContent()).trim();
    // 3 violations + 1 handling + 3 of the admin's notifications
    assertEqual(await count('violations'), '7 baris', 'violations count');
    assertEqual(await count('attendance'), '18 baris', 'attendance count (12 hours + 6 days)');

    // Choosing students ticks what it requires and says so before anything is sent.
    await panel.getByTestId('reset-set-students').check();
    await expectVisible(panel.getByTestId('reset-added'), 'the sets students brings with it');
    const added = await panel.getByTestId('reset-added').innerText();
    assert(added.includes('Pelanggaran') && added.includes('Absensi'), `why they were added: ${added}`);
    assert(await panel.getByTestId('reset-set-violations').isChecked(), 'violations ticked with students');
    assert(await panel.getByTestId('reset-set-violations').isDisabled(), 'violations held while students is chosen');
    await shot(page, 'reset-01-requirements');
    await checkA11y(page, 'the reset panel with held sets');
    await panel.getByTestId('reset-set-students').uncheck();
    await panel.getByTestId('reset-set-parent_messages').uncheck();
    assert(await panel.getByTestId('reset-set-violations').isChecked(), 'violations stays ticked');
    assert(await panel.getByTestId('reset-set-attendance').isChecked(), 'attendance stays ticked');
    const summary = await panel.getByTestId('reset-summary').innerText();
    assert(summary.includes('Pelanggaran') && summary.includes('Absensi') && summary.includes('25 baris'), `summary: ${summary}`);

    // A wrong school name: the field says so and nothing is removed.
    await panel.getByTestId('reset-open-confirm').click();
    const dialog = page.getByTestId('reset-confirm');
    await expectVisible(dialog, 'the confirmation');
    await checkA11y(page, 'the reset confirmation');
    await dialog.getByTestId('reset-school-name').fill('SMA Negeri 9');
    await dialog.getByTestId('reset-password').fill(ADMIN_PASSWORD);
    await dialog.getByTestId('reset-submit').click();
    await expectVisible(dialog.getByText('Nama sekolah tidak sama persis'), 'the school name field error');
    await shot(page, 'reset-02-wrong-school-name');
    const still = await apiCall(page, 'GET', '/api/v1/admin/reset');
    assertEqual(still.body.sets.find((s) => s.id === 'violations').rows.violations, 3, 'nothing removed after the refusal');

    await dialog.getByTestId('reset-school-name').fill(SCHOOL);
    await dialog.getByTestId('reset-submit').click();
    const result = panel.getByTestId('reset-result');
    await expectVisible(result, 'what was removed and re-created');
    const text = await result.innerText();
    assert(text.includes('Pelanggaran: 3 baris') && text.includes('Absensi per jam: 12 baris'), `removed: ${text}`);
    assert(text.includes('Batas poin SP bawaan'), `the SP ladder re-created: ${text}`);
    assertEqual(await count('violations'), '0 baris', 'violations at 0');
    assertEqual(await count('attendance'), '0 baris', 'attendance at 0');
    assert((await count('students')) !== '0 baris', 'students kept');
    const thresholds = await apiCall(page, 'GET', '/api/v1/sp-thresholds');
    assertEqual(thresholds.status, 200, 'GET /sp-thresholds');
    assert(JSON.stringify(thresholds.body).includes('SP 1'), `the default SP ladder is back: ${JSON.stringify(thresholds.body)}`);
    await shot(page, 'reset-03-done');

    await result.getByTestId('reset-open-audit').click();
    await page.waitForURL((u) => u.pathname === '/audit-log');
    const row = page.getByTestId('audit-table').locator('[data-testid^="audit-row-"]').first();
    await expectVisible(row, 'the newest audit entry');
    const entry = await apiCall(page, 'GET', '/api/v1/audit-log');
    assertEqual(entry.body.data[0].action, 'data.reset', 'the newest audit entry is the reset');
    assert((await row.innerText()).length > 0, 'the reset shows on the audit screen');
    await shot(page, 'reset-04-audit');
  } finally {
    await own.stop();
  }
});

test('reset: the roles screen shows data.reset and data.backup locked as the administrator\'s alone', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/roles');
  for (const name of ['data.reset', 'data.backup']) {
    await expectVisible(page.getByTestId(`admin-only-${name}`), `${name} marked admin-only`);
    assert((await page.getByTestId(`admin-only-${name}`).textContent()).includes('Hanya administrator'), `${name} says Hanya administrator`);
    for (const role of ['bk', 'wali_kelas', 'staff']) {
      const cell = page.getByTestId(`perm-${role}-${name}`);
      assert(await cell.isDisabled(), `${name} for ${role} cannot be ticked`);
      assert(!(await cell.isChecked()), `${name} for ${role} is not held`);
    }
  }
  const refused = await apiCall(page, 'PUT', '/api/v1/roles/bk/permissions', { permissions: ['data.reset'] });
  assertEqual(refused.status, 422, 'granting data.reset is refused');
  await page.getByTestId('perm-row-data.reset').scrollIntoViewIfNeeded();
  await shot(page, 'reset-05-roles-locked');
});
