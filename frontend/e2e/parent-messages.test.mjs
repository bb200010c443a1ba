// End-to-end cases for parent messaging (issue 15, "Done when"): an admin points Tatib at the
// Fonnte simulator (`tatib-sim wa -kind fonnte`, started here as a child process: TATIB_SIM_BIN,
// else bin/tatib-sim when built, else `go run`), sends a test message and sees exactly what the
// gateway answered, previews a template with a real student, saves; a violation for a student
// with a parent phone shows in the delivery log as sent. Then the simulator fails the first two
// sends (HTTP 500): the log shows the retries, then the message goes out. Last, a homeroom
// teacher reads the log on a 360 px phone in English with the numbers masked.
// E2E_ONLY=parent-messages npm run e2e
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const suffix = Date.now().toString(36).slice(-5);
const SIM_TOKEN = `fonnte-e2e-${suffix}`;
const PARENT_PHONE = '081234567890';
const PARENT_NORMAL = '6281234567890';
const BK = { username: `bk.pesan${suffix}`, name: 'Guru BK Pesan', password: 'bk-pesan-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.pesan${suffix}`, name: 'Wali Pesan', password: 'wali-pesan-e2e-1', role: 'wali_kelas', email: '', phone: '' };

let sim = null;
let simBase = '';

/** Starts the Fonnte simulator on a free port; its first stdout line is the base URL. */
async function startSimulator() {
  if (sim) return simBase;
  const args = ['wa', '-kind', 'fonnte', '-addr', '127.0.0.1:0', '-token', SIM_TOKEN];
  const built = process.env.TATIB_SIM_BIN ?? path.join(repo, 'bin/tatib-sim');
  const [cmd, argv] = existsSync(built) ? [built, args] : ['go', ['run', './server/cmd/tatib-sim', ...args]];
  sim = spawn(cmd, argv, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  sim.stderr.on('data', (d) => (stderr += d));
  process.once('exit', () => sim?.kill('SIGKILL'));
  const lines = createInterface({ input: sim.stdout });
  simBase = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator printed no base URL: ${stderr}`)), 120_000);
    lines.once('line', (l) => (clearTimeout(timer), resolve(l.trim())));
    sim.once('exit', (code) => (clearTimeout(timer), reject(new Error(`simulator exited with ${code}: ${stderr}`))));
  });
  assert(/^http:\/\/127\.0\.0\.1:\d+$/.test(simBase), `simulator base URL: ${simBase}`);
  return simBase;
}

afterAll(() => {
  if (sim && sim.exitCode === null) sim.kill('SIGTERM');
  sim = null;
});

/** Tells the simulator how to answer the next sends. */
async function simMode(mode) {
  const res = await fetch(`${simBase}/_sim/mode`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(mode) });
  assertEqual(res.status, 200, `POST /_sim/mode ${JSON.stringify(mode)}: ${await res.text()}`);
}

/** What the simulator has accepted so far. */
async function simMessages() {
  const res = await fetch(`${simBase}/_sim/messages`);
  assertEqual(res.status, 200, 'GET /_sim/messages');
  const body = await res.json();
  return Array.isArray(body) ? body : (body.messages ?? body.data ?? []);
}

let school = null;

/** A counselor, a homeroom teacher and their class with Sari (parent phone set); a violation type. */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const ids = {};
  for (const u of [BK, WALI]) {
    const res = await apiCall(admin, 'POST', '/api/v1/users', u);
    assertEqual(res.status, 201, `create ${u.username}: ${JSON.stringify(res.body)}`);
    ids[u.role] = res.body.id;
  }
  const cats = await apiCall(admin, 'GET', '/api/v1/violation-categories');
  assertEqual(cats.status, 200, 'GET /violation-categories');
  const type = await apiCall(admin, 'POST', '/api/v1/violation-types', {
    name: `Tidak memakai dasi ${suffix}`,
    points: 5,
    category_id: cats.body.data[0].id,
    default_sanction: '',
    description: '',
  });
  assertEqual(type.status, 201, `create type ${JSON.stringify(type.body)}`);
  await admin.context().close();

  const sql = databaseOf(BK.username, ids.bk);
  const one = (q) => Number(sql(q).split('\n')[0]);
  const className = `XII PESAN ${suffix}`;
  const classId = one(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${className}', 12, ${ids.wali_kelas}) RETURNING id`);
  const base = 600000 + Math.floor(Math.random() * 90000);
  const name = `Sari Pesan ${suffix}`;
  const studentId = one(
    `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id, parent_name, parent_phone)
     VALUES (${base}, '00${base}', '${base}', '${name}', 'P', ${classId}, 'Ibu Sari', '${PARENT_PHONE}') RETURNING id`,
  );
  school = { sql, typeId: type.body.id, studentId, name, className };
  return school;
}

/** Records a violation for the student through the API, as the record form does. */
async function recordViolation(page, s, description) {
  const res = await apiCall(page, 'POST', '/api/v1/violations', { student_id: s.studentId, type_ids: [s.typeId], location: 'Kelas', description });
  assert(res.status === 201 || res.status === 200, `record violation: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.violations?.[0]?.id ?? res.body.id ?? res.body.violation?.id;
  assert(id, `violation id in ${JSON.stringify(res.body).slice(0, 300)}`);
  return id;
}

/** The student's message for a violation, through the API (polled until cond holds). */
async function messageUntil(page, s, violationId, cond, what, ms = 30_000) {
  const until = Date.now() + ms;
  let last = null;
  while (Date.now() < until) {
    const res = await apiCall(page, 'GET', `/api/v1/parent-messages?student_id=${s.studentId}`);
    assertEqual(res.status, 200, `GET /parent-messages: ${JSON.stringify(res.body)}`);
    last = res.body.data.find((m) => m.violation_id === violationId) ?? null;
    if (last && cond(last)) return last;
    await page.waitForTimeout(300);
  }
  throw new Error(`${what}: the message is ${JSON.stringify(last)}`);
}

/** Picks an option of a Mantine Select by its label. */
async function choose(page, testId, option) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('parent-messages: an admin points Tatib at the Fonnte simulator, tests it, and a violation\'s message shows as sent', async (ctx) => {
  const s = await setUp(ctx);
  const base = await startSimulator();
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/settings');
  await page.getByTestId('settings-tab-messaging').click();
  await page.waitForURL(/\/settings\/messaging$/);
  await expectVisible(page.getByTestId('messaging-section'), 'the messaging section');

  // The gateway: Fonnte at the simulator, its token; no quiet hours (the test runs at any hour).
  await choose(page, 'msg-kind', 'Fonnte');
  await expectVisible(page.getByText('Biasanya https://api.fonnte.com'), 'the usual Fonnte address as a hint');
  // The server's field errors land at their fields: an address that is no web address, no token.
  await page.getByTestId('msg-base-url').fill('ftp://gateway.sekolah');
  await page.getByTestId('msg-save').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="msg-base-url"]')?.getAttribute('aria-invalid') === 'true', null, { timeout: 10_000 });
  await page.waitForFunction(() => (document.querySelector('[data-testid="msg-token"]')?.closest('.mantine-PasswordInput-root')?.querySelectorAll('[aria-invalid="true"], [data-invalid="true"]').length ?? 0) > 0, null, { timeout: 10_000 });
  await shot(page, 'parent-messages-00-settings-field-errors');
  await page.getByTestId('msg-base-url').fill(base);
  await page.getByTestId('msg-token').fill(SIM_TOKEN);
  await page.getByTestId('msg-quiet-on').click();
  await expectVisible(page.getByTestId('msg-unsaved'), 'unsaved changes are marked');

  // A test message before saving: exactly what the gateway answered.
  await page.getByTestId('msg-test-phone').fill(PARENT_PHONE);
  await page.getByTestId('msg-test-send').click();
  const result = page.getByTestId('msg-test-result');
  await expectVisible(result, 'the test result');
  assertEqual(await result.getAttribute('data-outcome'), 'sent', 'the test outcome');
  assertEqual(await page.getByTestId('msg-test-http').innerText(), '200', 'the HTTP status shown');
  const answer = await page.getByTestId('msg-test-answer').innerText();
  assert(/"status":\s*true/.test(answer), `the raw answer shows Fonnte's status: ${answer}`);
  assert((await page.getByTestId('msg-test-id').innerText()).trim() !== '', 'the gateway message id shown');
  assert((await simMessages()).some((m) => JSON.stringify(m).includes(PARENT_NORMAL)), 'the simulator got the test message at the normalised number');
  await shot(page, 'parent-messages-01-settings-test');

  // The preview: the violation template filled with Sari's data, before saving.
  await page.getByTestId('msg-preview-student').click();
  await page.getByTestId('msg-preview-student').fill(s.name);
  await page.getByRole('option', { name: new RegExp(s.name) }).click();
  const preview = page.getByTestId('msg-preview-text-violation');
  await expectVisible(preview, 'the violation preview');
  await page.waitForFunction((n) => document.querySelector('[data-testid="msg-preview-text-violation"]')?.textContent?.includes(n), s.name, { timeout: 10_000 });
  // A placeholder chip inserts at the end of the template; the preview follows.
  await page.getByTestId('msg-template-violation').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+End');
  await page.getByTestId('msg-ph-violation-kelas').click();
  const tpl = await page.getByTestId('msg-template-violation').inputValue();
  assert(tpl.endsWith('{kelas}'), `the chip inserted {kelas}: …${tpl.slice(-40)}`);
  await page.waitForFunction((c) => document.querySelector('[data-testid="msg-preview-text-violation"]')?.textContent?.trimEnd().endsWith(c), s.className, { timeout: 10_000 });
  await checkA11y(page, 'settings → parent messaging');
  await shot(page, 'parent-messages-02-settings-preview');

  // Unsaved changes: leaving asks first.
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Dasbor' }).click();
  const leave = page.getByRole('dialog', { name: 'Tinggalkan tanpa menyimpan?' });
  await expectVisible(leave, 'the leave dialog');
  await leave.getByRole('button', { name: 'Tetap di sini' }).click();
  await leave.waitFor({ state: 'hidden' });
  assert(page.url().endsWith('/settings/messaging'), `stayed on the settings: ${page.url()}`);

  await page.getByTestId('msg-save').click();
  await expectVisible(page.getByText('Pengaturan pesan orang tua disimpan.'), 'saved');
  await page.waitForFunction(() => !document.querySelector('[data-testid="msg-unsaved"]'), null, { timeout: 10_000 });
  const saved = await apiCall(page, 'GET', '/api/v1/settings/messaging');
  assertEqual(saved.body.gateway.kind, 'fonnte', 'saved kind');
  assertEqual(saved.body.gateway.token_set, true, 'token saved');
  assert(!('token' in saved.body.gateway) || !saved.body.gateway.token, 'the token is never answered');
  assertEqual(saved.body.quiet_hours, null, 'no quiet hours');
  // The stored token: "kept" until replaced, with a remove action.
  assertEqual(await page.getByTestId('msg-token').inputValue(), '', 'the token field is empty');
  await expectVisible(page.getByTestId('msg-token-clear'), 'remove the stored token');

  // A violation for Sari: her parent's message goes out and the log shows it sent.
  const vid = await recordViolation(page, s, 'Uji pesan orang tua');
  await messageUntil(page, s, vid, (m) => m.status === 'sent', 'the message is sent');
  await page.goto('/pesan-orang-tua');
  const row = page.locator(`[data-testid="pm-row"][data-status="sent"]`).filter({ hasText: s.name });
  await expectVisible(row, "Sari's message, sent");
  assert((await row.innerText()).includes('Pelanggaran dicatat'), 'the event in words');
  assertEqual(await row.getByTestId('pm-phone').getAttribute('data-masked'), null, 'the admin sees the full number');
  assert((await row.getByTestId('pm-phone').innerText()).includes('+62 812-3456-7890'), 'the number as people read it');
  await row.getByTestId('pm-open').click();
  const detail = page.getByTestId('pm-detail');
  await expectVisible(detail, 'the message drawer');
  assert((await page.getByTestId('pm-body').innerText()).includes(s.name), 'the full text names the student');
  assertEqual(await page.locator('[data-testid="pm-attempt"]').count(), 1, 'one attempt');
  assertEqual(await page.locator('[data-testid="pm-attempt"]').first().getAttribute('data-outcome'), 'sent', 'the attempt was accepted');
  await checkA11y(page, 'delivery log drawer');
  await page.waitForTimeout(400); // the drawer's slide-in
  await shot(page, 'parent-messages-03-log-sent');
  assert((await simMessages()).filter((m) => JSON.stringify(m).includes(s.name)).length === 1, 'the simulator got the message once');
}, { timeout: 180_000 });

test('parent-messages: a gateway outage shows retries, then the message goes out', async (ctx) => {
  const s = await setUp(ctx);
  await startSimulator();
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await simMode({ mode: 'server_error', fail_first: 2 });
  const vid = await recordViolation(page, s, 'Uji gangguan gateway');

  // The worker's backoff (30 s, then 1 min) has no setting for tests: after each failed attempt
  // the test brings the next one forward, as time passing would, and wakes the worker.
  const hurry = (id) =>
    s.sql(`UPDATE parent_messages SET next_attempt_at = now() WHERE id = ${id} AND status = 'queued'; SELECT pg_notify('tatib_parent_messages', '')`);
  let m = await messageUntil(page, s, vid, (x) => x.attempts >= 1, 'the first attempt');
  assertEqual(m.status, 'queued', 'a 500 is retried: still queued');
  assertEqual(m.last_outcome, 'temporary', 'classified as a temporary failure');
  assert(m.last_http_status >= 500, `the gateway's 5xx kept: ${m.last_http_status}`);

  // On screen: waiting, one attempt, the gateway's answer; the list refreshes on its own.
  await page.goto('/pesan-orang-tua?status=queued');
  const row = page.locator(`[data-testid="pm-row"][data-id="${m.id}"]`);
  await expectVisible(row, 'the waiting message');
  assertEqual(await row.getAttribute('data-status'), 'queued', 'shown as waiting');
  await expectVisible(row.getByTestId('pm-last-answer'), 'the last answer');
  await expectVisible(page.getByTestId('pm-refreshing'), 'the list says it refreshes');
  await shot(page, 'parent-messages-04-log-retrying');

  hurry(m.id);
  m = await messageUntil(page, s, vid, (x) => x.attempts >= 2, 'the second attempt');
  assertEqual(m.status, 'queued', 'still queued after the second 500');
  hurry(m.id);
  m = await messageUntil(page, s, vid, (x) => x.status === 'sent', 'sent on the third attempt');
  assertEqual(m.attempts, 3, 'three attempts');

  // The page follows by itself (≈10 s refresh while something waited); then the drawer's history.
  await page.goto('/pesan-orang-tua');
  const sent = page.locator(`[data-testid="pm-row"][data-id="${m.id}"][data-status="sent"]`);
  await expectVisible(sent, 'the message, sent');
  assertEqual((await sent.getByTestId('pm-attempts-count').innerText()).trim(), '3', 'three attempts in the list');
  await sent.getByTestId('pm-open').click();
  await expectVisible(page.getByTestId('pm-attempts'), 'the attempt log');
  const outcomes = await page.locator('[data-testid="pm-attempt"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-outcome')));
  assertEqual([...outcomes].sort().join(','), 'sent,temporary,temporary', 'two temporary failures, then sent');
  await page.waitForTimeout(400); // the drawer's slide-in
  await shot(page, 'parent-messages-05-log-retried');

  // The status chips count and filter.
  await page.keyboard.press('Escape');
  await page.getByTestId('pm-chip-sent').click();
  await page.waitForURL((u) => u.searchParams.get('status') === 'sent');
  const sentCount = Number((await page.getByTestId('pm-count-sent').innerText()).replace(/\D/g, ''));
  assert(sentCount >= 2, `at least two sent: ${sentCount}`);
  await page.getByTestId('pm-chip-cancelled').click();
  await page.waitForURL((u) => u.searchParams.get('status') === 'cancelled');
  await expectVisible(page.getByTestId('pm-empty'), 'no cancelled message');
  await page.getByTestId('pm-empty').getByTestId('clear-filters').click();
  await page.waitForURL((u) => !u.searchParams.has('status'));

  // The dashboard's failure count is for those who may send again; a number links to the failed ones.
  const dash = await apiCall(page, 'GET', '/api/v1/dashboard');
  if (typeof dash.body?.parent_messages_failed === 'number') {
    await page.goto('/dashboard');
    const card = page.getByTestId('dash-pm-failed');
    await expectVisible(card, 'the failed messages card');
    assert((await card.innerText()).includes(`Pesan orang tua gagal terkirim: ${dash.body.parent_messages_failed}`), 'the count in words');
    await card.click();
    await page.waitForURL((u) => u.pathname === '/pesan-orang-tua' && u.searchParams.get('status') === 'failed');
  }
  await simMode({ mode: 'ok' });

  // The settings on a 360 px phone: one column, nothing wider than the screen.
  const phone = await newPage(ctx, PHONE);
  await signIn(phone, 'admin', ADMIN_PASSWORD);
  await phone.goto('/settings/messaging');
  await expectVisible(phone.getByTestId('msg-template-violation'), 'the settings form on a phone');
  await noSidewaysScroll(phone, 'the messaging settings on a phone');
  await shot(phone, 'parent-messages-10-settings-phone');
}, { timeout: 180_000 });

test('parent-messages: a homeroom teacher reads the log on a phone in English, numbers masked', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, PHONE);
  await signIn(page, WALI.username, WALI.password);
  await page.evaluate(() => localStorage.setItem('tatib.language', 'en'));
  await page.goto('/pesan-orang-tua');
  const card = page.locator('[data-testid="pm-row"][data-status="sent"]').filter({ hasText: s.name }).first();
  await expectVisible(card, "Sari's message as a card");
  assert((await card.innerText()).includes('Sent'), 'the status in English');
  assert((await card.innerText()).includes('Violation recorded'), 'the event in English');
  const phone = card.getByTestId('pm-phone');
  assertEqual(await phone.getAttribute('data-masked'), 'true', 'the number is masked');
  assert(!(await phone.innerText()).includes('3456'), `no full number: ${await phone.innerText()}`);
  assertEqual(await page.getByTestId('pm-retry-failed').count(), 0, 'no "send every failed one again"');
  await noSidewaysScroll(page, 'the log on a phone');
  await checkA11y(page, 'delivery log, phone, English');
  await shot(page, 'parent-messages-06-phone-en');
  await card.click();
  await expectVisible(page.getByTestId('pm-detail'), 'the drawer on a phone');
  await page.waitForTimeout(400); // the drawer's slide-in
  assertEqual(await page.getByTestId('pm-retry').count(), 0, 'no retry without parent_messages.manage');
  await noSidewaysScroll(page, 'the drawer on a phone');
  await shot(page, 'parent-messages-07-phone-en-drawer');

  // In Indonesian the same card says "Terkirim".
  await page.evaluate(() => localStorage.setItem('tatib.language', 'id'));
  await page.reload();
  await expectVisible(page.locator('[data-testid="pm-row"][data-status="sent"]').filter({ hasText: 'Terkirim' }), 'the status in Indonesian');
  await checkA11y(page, 'delivery log, phone, Indonesian');
});

test('parent-messages: a counselor reads the settings, cancels a waiting message, sends it again, and sends every failed one again', async (ctx) => {
  const s = await setUp(ctx);
  await startSimulator();
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, BK.username, BK.password);

  // settings.view without settings.manage: the values as text under one "view only" mark.
  await page.goto('/settings/messaging');
  await expectVisible(page.getByTestId('messaging-view'), 'the read-only settings');
  await expectVisible(page.getByTestId('view-only'), 'the view-only mark');
  const view = await page.getByTestId('messaging-view').innerText();
  assert(view.includes('Fonnte') && view.includes('Tersimpan'), `the gateway and its saved token: ${view.slice(0, 300)}`);
  assert(!view.includes(SIM_TOKEN), 'never the token itself');
  assertEqual(await page.getByTestId('msg-save').count(), 0, 'no save button');
  await shot(page, 'parent-messages-08-settings-read-only');

  // The gateway is down: the message waits; the counselor cancels it, then sends it again.
  await simMode({ mode: 'server_error' });
  const v1 = await recordViolation(page, s, 'Uji batal lalu kirim ulang');
  let m = await messageUntil(page, s, v1, (x) => x.attempts >= 1, 'a first failed attempt');
  await page.goto(`/pesan-orang-tua?student_id=${s.studentId}`);
  await expectVisible(page.getByTestId('pm-student-filter'), 'the student filter');
  await page.waitForFunction((n) => document.querySelector('[data-testid="pm-student-filter"]')?.value?.includes(n), s.name, { timeout: 10_000 });
  const row = page.locator(`[data-testid="pm-row"][data-id="${m.id}"]`);
  await expectVisible(row, 'the waiting message');
  assertEqual(await row.getByTestId('pm-phone').getAttribute('data-masked'), null, 'a counselor sees the full number');
  await row.getByTestId('pm-open').click();
  await page.getByTestId('pm-cancel').click();
  await expectVisible(page.locator('[data-testid="pm-detail"][data-status="cancelled"]'), 'cancelled');
  await simMode({ mode: 'ok' });
  await page.getByTestId('pm-retry').click();
  await messageUntil(page, s, v1, (x) => x.status === 'sent', 'sent after the retry');
  await expectVisible(page.locator('[data-testid="pm-detail"][data-status="sent"]'), 'the drawer follows to sent');
  await page.keyboard.press('Escape');

  // A number not on WhatsApp fails for good; "send every failed one again" once it is fixed.
  await simMode({ mode: 'not_on_whatsapp' });
  const v2 = await recordViolation(page, s, 'Uji gagal permanen');
  m = await messageUntil(page, s, v2, (x) => x.status === 'failed', 'failed for good');
  assertEqual(m.last_outcome, 'permanent', 'not retried by itself');
  await simMode({ mode: 'ok' });
  await page.goto('/pesan-orang-tua?status=failed');
  await expectVisible(page.locator(`[data-testid="pm-row"][data-id="${m.id}"][data-status="failed"]`), 'the failed message under "Gagal"');
  await shot(page, 'parent-messages-09-failed');
  await page.getByTestId('pm-retry-failed').click();
  await page.getByTestId('pm-retry-failed-confirm').click();
  await messageUntil(page, s, v2, (x) => x.status === 'sent', 'sent after "send every failed one again"');
  await expectVisible(page.getByTestId('pm-empty'), 'nothing failed any more');
  await checkA11y(page, 'delivery log, empty status');

  // A rate-limit answer pauses the gateway: the log says until when, and the message waits.
  await simMode({ mode: 'rate_limit', fail_first: 1 });
  const v3 = await recordViolation(page, s, 'Uji jeda gateway');
  await messageUntil(page, s, v3, (x) => x.attempts >= 1, 'the rate-limited attempt');
  await page.goto('/pesan-orang-tua');
  await expectVisible(page.getByTestId('pm-paused'), 'the pause banner');
  await checkA11y(page, 'delivery log, paused');
  await shot(page, 'parent-messages-11-paused');
  // End the pause (as its time passing would) so later runs of the worker are not held.
  s.sql(`UPDATE messaging_state SET paused_until = NULL, pause_reason = ''; UPDATE parent_messages SET next_attempt_at = now() WHERE status = 'queued'; SELECT pg_notify('tatib_parent_messages', '')`);
  await messageUntil(page, s, v3, (x) => x.status === 'sent', 'sent once the pause is over');
}, { timeout: 180_000 });
