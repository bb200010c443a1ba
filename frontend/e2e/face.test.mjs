// End-to-end cases for Face-ID (issue 16). Without a camera: an admin records a parent's
// consent on the student page (a bad input is refused at its fields), a counselor may too, a
// homeroom teacher may not (no button, 403); Settings → Face-ID creates a kiosk (its token shown
// once) and revokes it (the token then gets 401), and its rules refuse a bad value at the field;
// the /wajah review page resolves an uncertain scan into attendance (H); withdrawing consent
// deletes the face data. With Chromium's fake camera playing clips built from public-domain
// portraits (e2e/face-clips.py): enrolment in the browser, and the gate kiosk recognising,
// refusing a still photo, not knowing a stranger, marking late with the automatic violation,
// and forgetting a face whose consent was withdrawn. Makes its own users, class and students:
// E2E_ONLY=face npm run e2e
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, assert, assertEqual, axeViolations, checkA11y, launchBrowser, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, apiCall, databaseOf, expectVisible, newPage, signIn } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.wajah${suffix}`, name: 'Guru BK Wajah', password: 'bk-wajah-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.wajah${suffix}`, name: 'Wali Wajah', password: 'wali-wajah-e2e-1', role: 'wali_kelas', email: '', phone: '' };
const STAFF = { username: `staf.wajah${suffix}`, name: 'Staf Wajah', password: 'staf-wajah-e2e-1', role: 'staff', email: '', phone: '' };
const MODEL = 'human-3.3.6-faceres';

/** Today in Jakarta (UTC+7, no daylight saving), YYYY-MM-DD. */
function jakartaDay() {
  return new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
}

let school = null;

/**
 * Three users (BK, a homeroom teacher, staff), the homeroom teacher's class and its students,
 * once per run (each case calls it, so any one of them runs alone). Person A and B are the
 * faces of the camera clips (the astronaut and Grace Hopper portraits).
 */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const ids = {};
  for (const u of [BK, WALI, STAFF]) {
    const res = await apiCall(admin, 'POST', '/api/v1/users', u);
    assertEqual(res.status, 201, `create ${u.username}: ${JSON.stringify(res.body)}`);
    ids[u.role] = res.body.id;
  }
  await admin.context().close();
  const sql = databaseOf(BK.username, ids.bk);
  const className = `X WAJAH ${suffix}`;
  const classId = Number(sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${className}', 10, ${ids.wali_kelas}) RETURNING id`).split('\n')[0]);
  const base = 700000 + Math.floor(Math.random() * 90000);
  const names = {
    consent: `Citra Persetujuan ${suffix}`,
    review: `Rudi Antrean ${suffix}`,
    runnerUp: `Rina Kedua ${suffix}`,
    withdraw: `Wawan Tarik ${suffix}`,
    a: `Ayu Astronaut ${suffix}`,
    b: `Bunga Hopper ${suffix}`,
    late: `Lukman Terlambat ${suffix}`,
  };
  const students = {};
  for (const [i, [key, name]] of Object.entries(names).entries()) {
    const n = base + i;
    students[key] = {
      name,
      id: Number(
        sql(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${n}, '00${n}', '${n}', '${name}', 'P', ${classId}) RETURNING id`).split(
          '\n',
        )[0],
      ),
    };
  }
  school = { classId, className, students, sql };
  return school;
}

async function pageAs(ctx, user, viewport = DESKTOP) {
  const page = await newPage(ctx, viewport);
  await signIn(page, user.username, user.password);
  return page;
}

async function adminPage(ctx) {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  return page;
}

/** Records an active consent through the API (the admin's page), unless one is there. */
async function ensureConsent(page, studentId) {
  const status = await apiCall(page, 'GET', `/api/v1/students/${studentId}/face`);
  assertEqual(status.status, 200, `GET face status ${JSON.stringify(status.body)}`);
  if (status.body.consent) return status.body;
  const res = await apiCall(page, 'PUT', `/api/v1/students/${studentId}/face-consent`, {
    guardian_name: 'Orang Tua E2E',
    relationship: 'guardian',
    method: 'paper',
    given_on: jakartaDay(),
    reference: '',
  });
  assertEqual(res.status, 200, `record consent ${JSON.stringify(res.body)}`);
  return res.body;
}

/** n random unit vectors of dim numbers (unrelated faces: near-orthogonal). */
function randomEmbeddings(n, dim = 1024) {
  return Array.from({ length: n }, () => {
    const v = Array.from({ length: dim }, () => Math.random() * 2 - 1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** The first lesson hour's status of a student today (GET the class's attendance form). */
async function firstHourToday(page, classId, studentId) {
  const form = await apiCall(page, 'GET', `/api/v1/classes/${classId}/attendance/${jakartaDay()}`);
  assertEqual(form.status, 200, `attendance form ${JSON.stringify(form.body)}`);
  const s = form.body.students.find((x) => x.id === studentId);
  assert(s, `student ${studentId} on the attendance form`);
  return s.cells.find((c) => c.lesson_hour === 1)?.status ?? 'belum';
}

/** A kiosk call from outside the browser, with the device token. */
async function kioskCall(baseURL, token, method, url, body) {
  const res = await fetch(`${baseURL}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

// ---------------------------------------------------------------------------------------------
// A. Without a camera
// ---------------------------------------------------------------------------------------------

test('face: an admin records a parent\'s consent (bad input refused at its fields); BK may too; a homeroom teacher sees it without the button and gets 403', async (ctx) => {
  const { students } = await setUp(ctx);
  const student = students.consent;
  const page = await adminPage(ctx);
  await page.goto(`/students/${student.id}`);
  const card = page.getByTestId('face-card');
  await expectVisible(card, 'the Face-ID card');
  const status = card.getByTestId('face-consent-status');
  await expectVisible(status, 'the consent status');
  assertEqual(await status.getAttribute('data-state'), 'none', 'no consent yet');
  assertEqual(await card.getByTestId('face-enrol').count(), 0, 'no enrol button without consent');
  assertEqual(await card.getByTestId('face-samples').getAttribute('data-count'), '0', 'nothing enrolled');

  await card.getByTestId('face-consent-record').click();
  const dialog = page.getByTestId('face-consent-dialog');
  await expectVisible(dialog.getByTestId('face-consent-guardian'), 'the consent form');
  // Nothing filled in: each required field says so, nothing is sent.
  await dialog.getByTestId('face-consent-save').click();
  for (const id of ['guardian', 'relationship', 'method']) {
    const field = dialog.getByTestId(`face-consent-${id}`);
    try {
      await page.waitForFunction((el) => el.getAttribute('aria-invalid') === 'true', await field.elementHandle(), { timeout: 5000 });
    } catch {
      throw new Error(`${id} not marked invalid when empty`);
    }
  }
  await expectVisible(dialog.getByText('Wajib diisi.'), 'the required message');
  assertEqual((await apiCall(page, 'GET', `/api/v1/students/${student.id}/face`)).body.consent, null, 'nothing stored after the refusal');

  // A date long ago: the server's words at the date field.
  await dialog.getByTestId('face-consent-guardian').fill('Sri Wahyuni');
  await dialog.getByTestId('face-consent-relationship').selectOption('mother');
  await dialog.getByTestId('face-consent-method').selectOption('paper');
  await dialog.getByTestId('face-consent-given-on').fill('1999-05-01');
  await dialog.getByTestId('face-consent-reference').fill(`FORM-${suffix}`);
  await dialog.getByTestId('face-consent-save').click();
  await expectVisible(dialog.getByText('Tanggal persetujuan terlalu lama; periksa tahunnya.'), 'the server refuses an old date at its field');
  assertEqual(await dialog.getByTestId('face-consent-given-on').getAttribute('aria-invalid'), 'true', 'date field marked invalid');
  await shot(page, 'face-01-consent-refused');

  await dialog.getByTestId('face-consent-given-on').fill(jakartaDay());
  await dialog.getByTestId('face-consent-save').click();
  await dialog.getByTestId('face-consent-guardian').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.querySelector('[data-testid="face-consent-status"]')?.getAttribute('data-state') === 'active');
  const text = await status.innerText();
  assert(text.includes('Sri Wahyuni') && text.includes('ibu'), `status text: ${text}`);
  const history = card.getByTestId('face-consent-history');
  await expectVisible(history, 'the consent history');
  // The badge's text is set in capitals by CSS: compare without case.
  const h = (await history.innerText()).toLowerCase();
  assert(h.includes('formulir kertas bertanda tangan') && h.includes(`form-${suffix}`) && h.includes('berlaku'), `history: ${h}`);
  await expectVisible(card.getByTestId('face-consent-withdraw'), 'the withdraw button');
  const stored = await apiCall(page, 'GET', `/api/v1/students/${student.id}/face`);
  assertEqual(stored.body.consent?.guardian_name, 'Sri Wahyuni', 'stored guardian');
  assertEqual(stored.body.consent?.given_on, jakartaDay(), 'stored date');
  await checkA11y(page, 'student page with a consent');
  await shot(page, 'face-02-consent-recorded');
  await page.context().close();

  // A counselor (BK holds face.consent and face.enrol by default) may correct it and enrol.
  const bk = await pageAs(ctx, BK);
  await bk.goto(`/students/${student.id}`);
  await expectVisible(bk.getByTestId('face-consent-record'), 'BK sees the consent button');
  await expectVisible(bk.getByTestId('face-enrol'), 'BK sees the enrol button');
  await expectVisible(bk.getByTestId('face-consent-withdraw'), 'BK sees the withdraw button');
  await bk.context().close();

  // A homeroom teacher sees the status only; the API refuses the change.
  const wali = await pageAs(ctx, WALI);
  await wali.goto(`/students/${student.id}`);
  const wcard = wali.getByTestId('face-card');
  await expectVisible(wcard.getByTestId('face-consent-status'), 'the homeroom teacher sees the consent status');
  assertEqual(await wcard.getByTestId('face-consent-status').getAttribute('data-state'), 'active', 'status for the homeroom teacher');
  for (const id of ['face-consent-record', 'face-consent-withdraw', 'face-enrol', 'face-delete-samples']) {
    assertEqual(await wcard.getByTestId(id).count(), 0, `no ${id} for a homeroom teacher`);
  }
  const put = await apiCall(wali, 'PUT', `/api/v1/students/${student.id}/face-consent`, {
    guardian_name: 'Bukan Wali',
    relationship: 'father',
    method: 'paper',
    given_on: jakartaDay(),
    reference: '',
  });
  assertEqual(put.status, 403, `homeroom teacher PUT consent ${JSON.stringify(put.body)}`);
  const del = await apiCall(wali, 'DELETE', `/api/v1/students/${student.id}/face-consent`, { reason: 'coba' });
  assertEqual(del.status, 403, 'homeroom teacher DELETE consent');
  const enrol = await apiCall(wali, 'POST', `/api/v1/students/${student.id}/face-enrolments`, { model: MODEL, embeddings: randomEmbeddings(3) });
  assertEqual(enrol.status, 403, 'homeroom teacher POST enrolments');
  await shot(wali, 'face-03-homeroom-view');
});

test('face: Settings → Face-ID creates a kiosk (token shown once), revokes it (401 after), and refuses a bad rule at its field', async (ctx) => {
  await setUp(ctx);
  const page = await adminPage(ctx);
  await page.goto('/settings/face');
  const kiosks = page.getByTestId('face-kiosks-section');
  await expectVisible(kiosks, 'the kiosks section');

  // An empty name is refused at the field.
  await kiosks.getByTestId('kiosk-create').click();
  await expectVisible(kiosks.getByText('Wajib diisi.'), 'empty kiosk name refused');

  const name = `Gerbang depan ${suffix}`;
  await kiosks.getByTestId('kiosk-name').fill(name);
  await kiosks.getByTestId('kiosk-create').click();
  const tokenBox = kiosks.getByTestId('kiosk-token-value');
  await expectVisible(tokenBox, 'the new token');
  const token = await tokenBox.inputValue();
  assert(/^kiosk_[A-Za-z0-9_-]{43}$/.test(token), `token shape: ${token}`);
  await shot(page, 'face-04-kiosk-token');
  const list = await apiCall(page, 'GET', '/api/v1/settings/kiosks');
  const row = list.body.data.find((k) => k.name === name);
  assert(row, `kiosk listed: ${JSON.stringify(list.body)}`);
  assert(!JSON.stringify(list.body).includes(token), 'the list never carries the token');

  const info = await kioskCall(ctx.baseURL, token, 'GET', '/api/v1/face/kiosk');
  assertEqual(info.status, 200, `kiosk info ${JSON.stringify(info.body)}`);
  assertEqual(info.body.name, name, 'the kiosk knows its name');
  // A kiosk token opens nothing else.
  const other = await kioskCall(ctx.baseURL, token, 'GET', '/api/v1/students');
  assert(other.status === 401 || other.status === 403, `kiosk token on /students: ${other.status}`);

  // Shown once: after "done" and a reload it is nowhere on the page.
  await kiosks.getByTestId('kiosk-token-done').click();
  await page.reload();
  await expectVisible(page.getByTestId(`kiosk-row-${row.id}`), 'the kiosk row');
  assert(!(await page.content()).includes(token), 'token not shown again');

  await page.getByTestId(`kiosk-revoke-${row.id}`).click();
  await page.getByTestId('kiosk-revoke-confirm').click();
  await page.waitForFunction((id) => document.querySelector(`[data-testid="kiosk-status-${id}"]`)?.getAttribute('data-state') === 'revoked', row.id);
  assertEqual(await page.getByTestId(`kiosk-revoke-${row.id}`).count(), 0, 'no revoke button on a revoked kiosk');
  const after = await kioskCall(ctx.baseURL, token, 'GET', '/api/v1/face/kiosk');
  assertEqual(after.status, 401, 'revoked token refused');
  const challenge = await kioskCall(ctx.baseURL, token, 'POST', '/api/v1/face/challenge');
  assertEqual(challenge.status, 401, 'revoked token cannot ask for a challenge');
  await shot(page, 'face-05-kiosk-revoked');

  // The rules: a bad threshold and no challenge are refused at their fields; a good change saves.
  const form = page.getByTestId('face-settings-section');
  await expectVisible(form.getByTestId('face-settings-threshold'), 'the face settings form');
  const before = (await apiCall(page, 'GET', '/api/v1/settings/face')).body;
  await form.getByTestId('face-settings-threshold').fill('1.5');
  for (const k of before.challenges) await form.getByTestId(`face-settings-challenge-${k}`).uncheck();
  await form.getByTestId('face-settings-save').click();
  await expectVisible(form.getByText('Isi angka lebih dari 0 dan kurang dari 1, misalnya 0.5.'), 'threshold refused at its field');
  await expectVisible(form.getByText('Pilih minimal satu tantangan.'), 'no challenge refused');
  assertEqual(await form.getByTestId('face-settings-threshold').getAttribute('aria-invalid'), 'true', 'threshold marked invalid');
  await shot(page, 'face-06-settings-refused');
  const unchanged = (await apiCall(page, 'GET', '/api/v1/settings/face')).body;
  assertEqual(unchanged.threshold, before.threshold, 'threshold unchanged after the refusal');

  await form.getByTestId('face-settings-threshold').fill('0.55');
  await form.getByTestId('face-settings-grace').fill('10');
  await form.getByTestId('face-settings-start').fill('06:45');
  await form.getByTestId('face-settings-challenge-blink').check();
  await form.getByTestId('face-settings-save').click();
  await expectVisible(page.getByText('Aturan Face-ID disimpan.'), 'saved notice');
  const saved = (await apiCall(page, 'GET', '/api/v1/settings/face')).body;
  assertEqual(saved.threshold, 0.55, 'threshold saved');
  assertEqual(saved.late_grace_minutes, 10, 'grace saved');
  assertEqual(saved.school_start.slice(0, 5), '06:45', 'start saved');
  assertEqual(JSON.stringify(saved.challenges), '["blink"]', 'challenges saved');
  // The server checks too: a bad value sent past the form is refused field by field.
  const bad = await apiCall(page, 'PUT', '/api/v1/settings/face', { ...saved, margin: 1.2, school_start: '25:00' });
  assertEqual(bad.status, 422, 'bad settings refused');
  assert(bad.body.error?.fields?.margin && bad.body.error?.fields?.school_start, `fields: ${JSON.stringify(bad.body)}`);
  await checkA11y(page, 'Settings → Face-ID');
  await shot(page, 'face-07-settings-saved');

  // The camera cases set what they need; put the defaults back.
  const reset = await apiCall(page, 'PUT', '/api/v1/settings/face', before);
  assertEqual(reset.status, 200, `restore settings ${JSON.stringify(reset.body)}`);
  // Staff cannot reach the settings.
  const staff = await pageAs(ctx, STAFF);
  assertEqual((await apiCall(staff, 'GET', '/api/v1/settings/face')).status, 403, 'staff GET /settings/face');
  assertEqual((await apiCall(staff, 'POST', '/api/v1/settings/kiosks', { name: 'x' })).status, 403, 'staff POST /settings/kiosks');
});

test('face: the review page resolves an uncertain scan from the queue (BK), the student is then H; staff gets 403', async (ctx) => {
  const { students, classId, sql } = await setUp(ctx);
  const s = students.review;
  const r = students.runnerUp;
  // A scan the server found uncertain this morning: at 06:30 Jakarta, or now if that is
  // earlier (either way before the default start, 07:00, so a confirmation makes it H).
  const scanId = Number(
    sql(`INSERT INTO face_scans (kiosk_name, scanned_at, outcome, model, student_id, score, runner_up_id, runner_up_score, margin, challenge_kind, challenge_passed)
         VALUES ('Gerbang e2e ${suffix}', LEAST(now(), ((now() AT TIME ZONE 'Asia/Jakarta')::date + time '06:30') AT TIME ZONE 'Asia/Jakarta'), 'uncertain', '${MODEL}',
                 ${s.id}, 0.53, ${r.id}, 0.49, 0.04, 'blink', true) RETURNING id`).split('\n')[0],
  );

  const staff = await pageAs(ctx, STAFF);
  assertEqual((await apiCall(staff, 'GET', '/api/v1/face/confirmations')).status, 403, 'staff GET /face/confirmations');
  assertEqual((await apiCall(staff, 'GET', '/api/v1/face/scans')).status, 403, 'staff GET /face/scans');
  assertEqual((await apiCall(staff, 'POST', `/api/v1/face/scans/${scanId}/resolve`, { action: 'confirm', student_id: s.id })).status, 403, 'staff resolve');
  await staff.context().close();

  const page = await pageAs(ctx, BK);
  // The nav item leads there.
  await page.goto('/wajah');
  const row = page.getByTestId(`face-confirm-row-${scanId}`);
  await expectVisible(row, 'the uncertain scan in the queue');
  const rowText = await row.innerText();
  assert(rowText.includes(s.name) && rowText.includes(r.name), `candidate and runner-up shown: ${rowText}`);
  await expectVisible(page.getByTestId('face-confirm-count'), 'the count on the tab');
  await shot(page, 'face-08-queue');
  const a11yQueue = await axeViolations(page);
  assertEqual(await firstHourToday(page, classId, s.id), 'belum', 'nothing recorded before the confirmation');

  await row.getByTestId(`face-confirm-${scanId}`).click();
  await row.waitFor({ state: 'detached' });
  await expectVisible(page.getByTestId('face-confirm-empty'), 'the queue empty');
  assertEqual(await firstHourToday(page, classId, s.id), 'H', 'confirmed arrival is present for hour 1');
  assertEqual(await firstHourToday(page, classId, r.id), 'belum', 'the runner-up untouched');
  const log = await apiCall(page, 'GET', '/api/v1/face/scans?outcome=uncertain');
  const logged = log.body.data.find((x) => x.id === scanId);
  assertEqual(logged?.resolution, 'confirmed', 'resolution logged');
  assertEqual(logged?.attendance, 'H', 'attendance logged');
  assertEqual(logged?.resolved_by_name, BK.name, 'who resolved it');
  // A second resolution is a conflict.
  const again = await apiCall(page, 'POST', `/api/v1/face/scans/${scanId}/resolve`, { action: 'reject' });
  assertEqual(again.status, 409, 'already resolved');

  await page.getByTestId('face-tab-log').click();
  const logRow = page.getByTestId(`face-scan-row-${scanId}`);
  await expectVisible(logRow, 'the scan in the log');
  await shot(page, 'face-09-log');
  // Checked last, so a colour problem does not hide whether the queue works.
  assert(a11yQueue.length === 0, `accessibility (the confirmation queue):\n  ${a11yQueue.join('\n  ')}`);
  await checkA11y(page, 'the scan log');
});

test('face: withdrawing consent deletes the enrolled face data at once', async (ctx) => {
  const { students, sql } = await setUp(ctx);
  const s = students.withdraw;
  const page = await pageAs(ctx, BK);
  await ensureConsent(page, s.id);
  const enrol = await apiCall(page, 'POST', `/api/v1/students/${s.id}/face-enrolments`, { model: MODEL, embeddings: randomEmbeddings(3) });
  assert(enrol.status === 200 || enrol.status === 201, `enrol ${enrol.status} ${JSON.stringify(enrol.body).slice(0, 300)}`);
  assertEqual((await apiCall(page, 'GET', `/api/v1/students/${s.id}/face`)).body.samples, 3, '3 samples stored');

  await page.goto(`/students/${s.id}`);
  const card = page.getByTestId('face-card');
  await expectVisible(card.getByTestId('face-samples'), 'the samples line');
  assertEqual(await card.getByTestId('face-samples').getAttribute('data-count'), '3', '3 samples on the card');
  await card.getByTestId('face-consent-withdraw').click();
  const dialog = page.getByTestId('face-withdraw-dialog');
  await dialog.getByTestId('face-withdraw-reason').fill('Permintaan orang tua');
  await shot(page, 'face-10-withdraw-dialog');
  await dialog.getByTestId('face-withdraw-confirm').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="face-samples"]')?.getAttribute('data-count') === '0');
  assertEqual(await card.getByTestId('face-consent-status').getAttribute('data-state'), 'none', 'no active consent');
  const h = (await card.getByTestId('face-consent-history').innerText()).toLowerCase();
  assert(h.includes('ditarik') && h.includes('permintaan orang tua'), `history: ${h}`);
  const status = await apiCall(page, 'GET', `/api/v1/students/${s.id}/face`);
  assertEqual(status.body.samples, 0, 'no samples after the withdrawal');
  assertEqual(sql(`SELECT count(*) FROM face_embeddings WHERE student_id = ${s.id}`), '0', 'no embedding row left');
  const refused = await apiCall(page, 'POST', `/api/v1/students/${s.id}/face-enrolments`, { model: MODEL, embeddings: randomEmbeddings(3) });
  assertEqual(refused.status, 409, 'no enrolment without consent');
  assertEqual(refused.body.error?.message_code, 'face.no_consent', `409 code ${JSON.stringify(refused.body)}`);
  await shot(page, 'face-11-withdrawn');
});

// ---------------------------------------------------------------------------------------------
// B. With Chromium's fake camera playing a clip (a browser of the case's own per clip)
// ---------------------------------------------------------------------------------------------

const CLIPS = ['a-blink.y4m', 'a-still.y4m', 'b-blink.y4m', 'b-still.y4m'];
let clipDir = null;

/** The clips, built once into a cache under the temp dir (keyed by the script's content). */
function clip(name) {
  if (!clipDir) {
    const script = path.join(here, 'face-clips.py');
    const key = createHash('sha256').update(readFileSync(script)).digest('hex').slice(0, 12);
    const dir = path.join(os.tmpdir(), `tatib-face-clips-${key}`);
    if (!CLIPS.every((f) => existsSync(path.join(dir, f)))) {
      execFileSync('/usr/bin/python3', [script, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    clipDir = dir;
  }
  return path.join(clipDir, name);
}

/** Console lines and page errors of the camera pages, told when a case fails. */
function watch(page, label, log) {
  page.on('console', (m) => log.push(`[${label}] ${m.type()}: ${m.text()}`.slice(0, 400)));
  page.on('pageerror', (e) => log.push(`[${label}] pageerror: ${String(e?.stack ?? e).slice(0, 600)}`));
  page.on('requestfailed', (r) => log.push(`[${label}] requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) log.push(`[${label}] HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
  });
}

/**
 * A camera case: fn(ctx, cam) where cam.page(user) opens a signed-in page (null: signed out)
 * in a Chromium whose camera plays `clipName`; the browser is closed after the case, and a
 * failure carries the pages' last console lines.
 */
function cameraTest(name, clipName, fn, timeout = 240_000) {
  test(
    name,
    async (ctx) => {
      const log = [];
      const browser = await launchBrowser([
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${clip(clipName)}`,
      ]);
      const cam = {
        log,
        async page(user, label = user?.username ?? 'kiosk') {
          const page = await newPage({ ...ctx, browser }, DESKTOP);
          await page.context().grantPermissions(['camera'], { origin: ctx.baseURL });
          watch(page, label, log);
          if (user) await signIn(page, user.username, user.password);
          return page;
        },
      };
      try {
        await fn(ctx, cam);
      } catch (err) {
        const tail = log.slice(-40).join('\n');
        if (tail) err.message += `\n--- the camera pages' console (last ${Math.min(40, log.length)} lines) ---\n${tail}`;
        throw err;
      } finally {
        // The harness screenshots a failed case's pages, then closes their contexts; the
        // browser is ours, closed a moment later (or at the end of the run at the latest).
        setTimeout(() => void browser.close().catch(() => {}), 3000);
        afterAll(() => browser.close().catch(() => {}));
      }
    },
    { timeout },
  );
}

/** The embeddings an enrolment sent, by student key (reused to enrol through the API). */
const captured = {};

/**
 * Enrols a student on /students/:id/face with the camera's clip: waits for a good face, takes
 * samples until `want` (a refused one is retried), saves; returns what it took and how long.
 */
async function enrolInBrowser(page, student, key, want = 3) {
  const t0 = Date.now();
  let sent = null;
  const onRequest = (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/students/${student.id}/face-enrolments`)) sent = r.postDataJSON();
  };
  page.on('request', onRequest);
  await page.goto(`/students/${student.id}/face`);
  await expectVisible(page.getByTestId('face-camera'), 'the camera view');
  try {
    await page.waitForFunction(() => document.querySelector('[data-testid="face-quality"]')?.getAttribute('data-ok') === 'true', null, { timeout: 90_000 });
  } catch {
    const why = await page.evaluate(() => ({
      quality: document.querySelector('[data-testid="face-quality"]')?.textContent,
      problems: document.querySelector('[data-testid="face-quality"]')?.getAttribute('data-problems'),
      camera: document.querySelector('[data-testid="face-camera-error"]')?.getAttribute('data-problem'),
      engine: document.querySelector('[data-testid="face-engine-error"]')?.textContent,
      video: (() => {
        const v = document.querySelector('video');
        return v ? { readyState: v.readyState, w: v.videoWidth, h: v.videoHeight } : null;
      })(),
    }));
    await shot(page, `face-FAILED-enrol-${key}-quality`);
    throw new Error(`the quality line never said ok: ${JSON.stringify(why)}`);
  }
  const ready = Date.now() - t0;
  await shot(page, `face-12-enrol-${key}-ready`);
  const refusals = [];
  const count = async () => Number(await page.getByTestId('face-sample-count').getAttribute('data-count'));
  for (let tries = 0; (await count()) < want; tries++) {
    assert(tries < 20, `only ${await count()} samples after 20 captures (refused: ${refusals.join(', ')})`);
    const before = await count();
    await page.getByTestId('face-capture').click();
    await page.waitForFunction(
      (n) => {
        const btn = document.querySelector('[data-testid="face-capture"]');
        const c = Number(document.querySelector('[data-testid="face-sample-count"]')?.getAttribute('data-count'));
        return !btn?.hasAttribute('data-loading') && (c > n || document.querySelector('[data-testid="face-sample-refused"]'));
      },
      before,
      { timeout: 30_000 },
    );
    if ((await count()) === before) {
      refusals.push((await page.getByTestId('face-sample-refused').getAttribute('data-problem')) ?? '?');
      await page.waitForTimeout(400);
    }
  }
  await shot(page, `face-13-enrol-${key}-samples`);
  const a11y = await axeViolations(page);
  await page.getByTestId('face-enrol-save').click();
  const done = page.getByTestId('face-enrol-done');
  try {
    await done.waitFor({ state: 'visible', timeout: 20_000 });
  } catch {
    const err = await page.getByTestId('face-enrol-error').textContent().catch(() => null);
    throw new Error(`enrolment not saved: ${err}`);
  }
  const text = await done.innerText();
  assert(text.includes(student.name) && text.includes(String(want)), `done text: ${text}`);
  page.off('request', onRequest);
  assert(sent && sent.model === MODEL && sent.embeddings.length === want, `what was sent: ${JSON.stringify(sent)?.slice(0, 200)}`);
  captured[key] = sent.embeddings;
  console.log(`# enrol ${key}: camera+engine ready ${ready} ms, ${want} samples, refused ${JSON.stringify(refusals)}, total ${Date.now() - t0} ms, dim ${sent.embeddings[0].length}`);
  return { ready, refusals, a11y };
}

let kiosk = null;
const KIOSK_NAME = `Gerbang kamera ${suffix}`;

/** A kiosk for the camera cases (created once, through the API). */
async function kioskToken(page) {
  if (kiosk) return kiosk;
  const res = await apiCall(page, 'POST', '/api/v1/settings/kiosks', { name: KIOSK_NAME });
  assertEqual(res.status, 201, `create kiosk ${JSON.stringify(res.body)}`);
  kiosk = { id: res.body.id, token: res.body.token };
  return kiosk;
}

/** Jakarta's minute of the day now. */
function jakartaMinute() {
  const d = new Date(Date.now() + 7 * 3600_000);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
}

/**
 * The face settings for the kiosk cases: blink only; arrivals `late` (school starts 00:00) or on
 * time (it starts 23:59) right now. Near Jakarta's midnight that does not hold for a whole case,
 * so a case there waits first: an on-time case from 23:57 until midnight (at most three minutes,
 * within a camera case's four), a late one through 00:00. A clean-clone run at 23:59 had failed
 * every kiosk case.
 */
async function gateSettings(page, { late }) {
  const now = jakartaMinute();
  if (late ? now < 1 : now >= 23 * 60 + 57) {
    const msIntoDay = (Date.now() + 7 * 3600_000) % 86_400_000;
    const until = (late ? 60_000 : 86_400_000) - msIntoDay + 2_000;
    console.log(`# ${late ? '00:00' : 'after 23:57'} Jakarta: waiting ${Math.round(until / 1000)} s for ${late ? '00:01' : 'midnight'}`);
    await page.waitForTimeout(until);
  }
  assert(late ? jakartaMinute() > 0 : jakartaMinute() < 23 * 60 + 57, `Jakarta minute ${jakartaMinute()} is still too near midnight`);
  const res = await apiCall(page, 'PUT', '/api/v1/settings/face', {
    school_start: late ? '00:00' : '23:59',
    late_grace_minutes: 0,
    threshold: 0.5,
    margin: 0.08,
    retention_days: 30,
    challenges: ['blink'],
  });
  assertEqual(res.status, 200, `face settings ${JSON.stringify(res.body)}`);
}

/**
 * Opens the kiosk (paired by the form, or by the pair link) and waits for its first answer;
 * returns the result's data and the states the screen went through.
 */
async function kioskScan(page, token, { pairByForm = false, label = 'scan' } = {}) {
  await page.addInitScript(() => {
    const seen = [];
    window.__kioskStates = seen;
    const t0 = performance.now();
    setInterval(() => {
      const st = document.querySelector('[data-testid="kiosk-status"]')?.getAttribute('data-state') ?? '-';
      const kind = document.querySelector('[data-testid="kiosk-challenge"]')?.getAttribute('data-kind') ?? '';
      const v = kind ? `${st}:${kind}` : st;
      if (seen.length === 0 || seen[seen.length - 1].v !== v) seen.push({ v, at: Math.round(performance.now() - t0) });
    }, 50);
  });
  const t0 = Date.now();
  if (pairByForm) {
    await page.goto('/kiosk');
    await expectVisible(page.getByTestId('kiosk-pair'), 'the pairing form');
    await checkA11y(page, 'the kiosk pairing form');
    await page.getByTestId('kiosk-token').fill(token);
    await page.getByTestId('kiosk-pair-submit').click();
  } else {
    await page.goto(`/kiosk#token=${token}`);
  }
  await expectVisible(page.getByTestId('kiosk-screen'), 'the running kiosk');
  await page.waitForURL((u) => !u.href.includes(token));
  // The first answer, read at once in the page (it gives way to the next scan after a while).
  let out;
  try {
    const handle = await page.waitForFunction(
      () => {
        const r = document.querySelector('[data-testid="kiosk-result"]');
        if (!r) return null;
        const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
        return {
          outcome: r.getAttribute('data-outcome'),
          attendance: r.getAttribute('data-attendance'),
          millis: Number(r.getAttribute('data-millis')),
          greeting: text('kiosk-greeting'),
          student: text('kiosk-student'),
          states: window.__kioskStates,
        };
      },
      null,
      { timeout: 90_000, polling: 50 },
    );
    out = { ...(await handle.jsonValue()), total: Date.now() - t0 };
  } catch {
    const states = await page.evaluate(() => window.__kioskStates);
    const status = await page.getByTestId('kiosk-status').textContent().catch(() => null);
    await shot(page, `face-FAILED-kiosk-${label}`);
    throw new Error(`no kiosk result in 90 s; status "${status}"; states ${JSON.stringify(states)}`);
  }
  await shot(page, `face-kiosk-${label}`);
  console.log(
    `# kiosk ${label}: ${out.outcome}/${out.attendance} "${out.student}" face→answer ${out.millis} ms, page→answer ${out.total} ms, states ${out.states
      .map((s) => `${s.v}@${s.at}`)
      .join(' ')}`,
  );
  return out;
}

/** The camera kiosk's newest scan in the log (the admin's page). */
async function lastScan(page) {
  const log = await apiCall(page, 'GET', '/api/v1/face/scans');
  assertEqual(log.status, 200, 'GET /face/scans');
  const mine = log.body.data.filter((s) => s.kiosk_name === KIOSK_NAME).sort((x, y) => y.id - x.id);
  assert(mine.length > 0, `a scan of ${KIOSK_NAME} in the log`);
  return mine[0];
}

cameraTest('face camera: a counselor enrols person A in the browser (fake camera, blinking clip)', 'a-blink.y4m', async (ctx, cam) => {
  const { students } = await setUp(ctx);
  const page = await cam.page(BK);
  await ensureConsent(page, students.a.id);
  const { a11y } = await enrolInBrowser(page, students.a, 'a');
  const status = await apiCall(page, 'GET', `/api/v1/students/${students.a.id}/face`);
  assertEqual(status.body.samples, 3, 'three samples stored');
  assertEqual(status.body.model, MODEL, 'the model stored with them');
  await page.goto(`/students/${students.a.id}`);
  await expectVisible(page.getByTestId('face-samples'), 'the samples line');
  assertEqual(await page.getByTestId('face-samples').getAttribute('data-count'), '3', 'the card counts three samples');
  // Checked last (taken while the samples were on screen), so a colour problem does not hide
  // whether enrolment works.
  assert(a11y.length === 0, `accessibility (the enrol page with samples):\n  ${a11y.join('\n  ')}`);
});

/** Person A enrolled (by the case above, or here when a case runs alone). */
async function ensureEnrolled(cam, students, key) {
  const page = await cam.page(BK, `${BK.username}-enrol`);
  const st = await apiCall(page, 'GET', `/api/v1/students/${students[key].id}/face`);
  if (st.body.samples === 0) {
    await ensureConsent(page, students[key].id);
    await enrolInBrowser(page, students[key], key);
  }
  await page.context().close();
}

cameraTest('face camera: the kiosk recognises A with a blink and marks them present (H)', 'a-blink.y4m', async (ctx, cam) => {
  const { students, classId } = await setUp(ctx);
  await ensureEnrolled(cam, students, 'a');
  const admin = await adminPage(ctx);
  await gateSettings(admin, { late: false });
  const { token } = await kioskToken(admin);
  const page = await cam.page(null);
  const r = await kioskScan(page, token, { pairByForm: true, label: 'a-matched' });
  assert(r.states.some((s) => s.v === 'challenge:blink'), `the blink challenge was shown: ${JSON.stringify(r.states)}`);
  assertEqual(r.outcome, 'matched', `outcome (greeting "${r.greeting}")`);
  assertEqual(r.attendance, 'H', 'attendance');
  assert(r.student.includes(students.a.name), `name shown: ${r.student}`);
  assert(r.millis > 0, 'face→answer time given');
  assertEqual(await firstHourToday(admin, classId, students.a.id), 'H', 'A present for hour 1');
  const scan = await lastScan(admin);
  assertEqual(scan.outcome, 'matched', 'logged as matched');
  assertEqual(scan.student_id, students.a.id, 'logged for A');
  assertEqual(scan.challenge_kind, 'blink', 'the challenge logged');
  assert(scan.challenge_passed, 'challenge passed');
  const v = await apiCall(admin, 'GET', `/api/v1/violations?student_id=${students.a.id}`);
  assertEqual(v.body.data.length, 0, 'no violation for an arrival on time');
  // Checked last, so a colour problem does not hide whether the kiosk works.
  await checkA11y(page, 'the running kiosk');
});

cameraTest('face camera: a still photo of A fails the liveness check (no blink)', 'a-still.y4m', async (ctx, cam) => {
  const { students } = await setUp(ctx);
  const admin = await adminPage(ctx);
  const st = await apiCall(admin, 'GET', `/api/v1/students/${students.a.id}/face`);
  if (st.body.samples === 0) {
    // Run alone: A's face must be known, or "not recognised" would not tell the check failed.
    await ensureConsent(admin, students.a.id);
    const enrol = await apiCall(admin, 'POST', `/api/v1/students/${students.a.id}/face-enrolments`, { model: MODEL, embeddings: captured.a ?? randomEmbeddings(3) });
    assert(enrol.status < 300, `enrol A ${JSON.stringify(enrol.body).slice(0, 200)}`);
  }
  await gateSettings(admin, { late: false });
  const { token } = await kioskToken(admin);
  const page = await cam.page(null);
  const r = await kioskScan(page, token, { label: 'a-still' });
  assertEqual(r.outcome, 'liveness_failed', `outcome (greeting "${r.greeting}")`);
  assertEqual(r.student, '', 'no name shown');
  const scan = await lastScan(admin);
  assertEqual(scan.outcome, 'liveness_failed', 'logged as liveness_failed');
  assertEqual(scan.challenge_passed, false, 'challenge not passed');
  assertEqual(scan.student_id, null, 'no student on a failed check');

  // The camera unplugged mid-day: the kiosk stops and says so, with a way to try again.
  await page.evaluate(() => {
    for (const track of document.querySelector('[data-testid=kiosk-camera]')?.srcObject?.getVideoTracks() ?? []) track.dispatchEvent(new Event('ended'));
  });
  const lost = page.getByTestId('kiosk-camera-error');
  await expectVisible(lost, 'the camera-lost message');
  assertEqual(await lost.getAttribute('data-problem'), 'lost', 'camera problem');
  assert((await lost.innerText()).includes('Kamera terputus'), 'said in Indonesian');
});

cameraTest('face camera: B, not enrolled, is not recognised', 'b-blink.y4m', async (ctx, cam) => {
  const { students, classId } = await setUp(ctx);
  const admin = await adminPage(ctx);
  assertEqual((await apiCall(admin, 'GET', `/api/v1/students/${students.b.id}/face`)).body.samples, 0, 'B not enrolled');
  await gateSettings(admin, { late: false });
  const { token } = await kioskToken(admin);
  const page = await cam.page(null);
  const r = await kioskScan(page, token, { label: 'b-unknown' });
  assert(r.outcome === 'unknown' || r.outcome === 'not_enrolled_model', `outcome ${r.outcome} (greeting "${r.greeting}")`);
  assertEqual(r.student, '', 'no name shown');
  assertEqual(await firstHourToday(admin, classId, students.b.id), 'belum', 'nothing recorded for B');
  const scan = await lastScan(admin);
  assertEqual(scan.outcome, r.outcome, 'logged');
  assert(scan.challenge_passed, 'B passed the blink (a live face, just unknown)');
});

cameraTest('face camera: B enrolled in the browser is then recognised by name', 'b-blink.y4m', async (ctx, cam) => {
  const { students, classId } = await setUp(ctx);
  await ensureEnrolled(cam, students, 'b');
  const admin = await adminPage(ctx);
  await gateSettings(admin, { late: false });
  const { token } = await kioskToken(admin);
  const page = await cam.page(null);
  const r = await kioskScan(page, token, { label: 'b-matched' });
  assertEqual(r.outcome, 'matched', `outcome (greeting "${r.greeting}")`);
  assert(r.student.includes(students.b.name), `B's name shown: ${r.student}`);
  assertEqual(r.attendance, 'H', 'attendance');
  assertEqual(await firstHourToday(admin, classId, students.b.id), 'H', 'B present for hour 1');
});

cameraTest('face camera: after A\'s consent is withdrawn the next scan of A does not match', 'a-blink.y4m', async (ctx, cam) => {
  const { students } = await setUp(ctx);
  await ensureEnrolled(cam, students, 'a');
  const admin = await adminPage(ctx);
  const w = await apiCall(admin, 'DELETE', `/api/v1/students/${students.a.id}/face-consent`, { reason: 'Orang tua menarik persetujuan' });
  assertEqual(w.status, 200, `withdraw ${JSON.stringify(w.body)}`);
  assertEqual(w.body.samples, 0, 'A\'s samples deleted');
  await gateSettings(admin, { late: false });
  const { token } = await kioskToken(admin);
  const page = await cam.page(null);
  const r = await kioskScan(page, token, { label: 'a-withdrawn' });
  // A live face (the blink passed) that no longer matches anyone: not a failed check.
  assert(r.outcome === 'unknown' || r.outcome === 'not_enrolled_model', `outcome ${r.outcome} (greeting "${r.greeting}", student "${r.student}")`);
  assertEqual(r.student, '', 'no name shown');
  const scan = await lastScan(admin);
  assert(scan.challenge_passed, 'the blink passed');
  assert(scan.student_id !== students.a.id, `not matched to A: ${JSON.stringify(scan)}`);
});

cameraTest('face camera: a student arriving after the start time is late (T) and the automatic late violation appears', 'a-blink.y4m', async (ctx, cam) => {
  const { students, classId } = await setUp(ctx);
  const late = students.late;
  const admin = await adminPage(ctx);
  // A new student with face A (A's own face data is gone: withdrawn above, or deleted here).
  const a = await apiCall(admin, 'GET', `/api/v1/students/${students.a.id}/face`);
  if (a.body.samples > 0) assertEqual((await apiCall(admin, 'DELETE', `/api/v1/students/${students.a.id}/face-enrolments`)).status, 200, 'delete A\'s samples');
  await ensureConsent(admin, late.id);
  if (captured.a) {
    const enrol = await apiCall(admin, 'POST', `/api/v1/students/${late.id}/face-enrolments`, { model: MODEL, embeddings: captured.a });
    assert(enrol.status < 300, `enrol the late student ${JSON.stringify(enrol.body).slice(0, 300)}`);
  } else {
    const bk = await cam.page(BK, `${BK.username}-enrol`);
    await enrolInBrowser(bk, late, 'late');
    await bk.context().close();
  }
  await gateSettings(admin, { late: true });
  const { token } = await kioskToken(admin);
  const page = await cam.page(null);
  const r = await kioskScan(page, token, { label: 'late' });
  assertEqual(r.outcome, 'matched', `outcome (greeting "${r.greeting}")`);
  assert(r.student.includes(late.name), `the late student's name: ${r.student}`);
  assertEqual(r.attendance, 'T', 'late');
  assertEqual(await firstHourToday(admin, classId, late.id), 'T', 'T for hour 1');
  const v = await apiCall(admin, 'GET', `/api/v1/violations?student_id=${late.id}`);
  const auto = v.body.data.filter((x) => x.type_slug === 'terlambat');
  assertEqual(auto.length, 1, `one automatic late violation: ${JSON.stringify(v.body.data).slice(0, 400)}`);
  await admin.goto(`/students/${late.id}`);
  await expectVisible(admin.getByText(/Terlambat/).first(), 'the late violation on the student page');
  await shot(admin, 'face-14-late-violation');
  // A second scan the same day changes nothing: the kiosk keeps looking and answers again.
  await page.getByTestId('kiosk-result').waitFor({ state: 'detached', timeout: 20_000 });
  const again = page.getByTestId('kiosk-result');
  await again.waitFor({ state: 'visible', timeout: 60_000 });
  assertEqual(await again.getAttribute('data-attendance'), 'kept', 'a second scan keeps the first');
  assertEqual((await apiCall(admin, 'GET', `/api/v1/violations?student_id=${late.id}`)).body.data.filter((x) => x.type_slug === 'terlambat').length, 1, 'still one violation');
  // Back to the default rules.
  await apiCall(admin, 'PUT', '/api/v1/settings/face', { school_start: '07:00', late_grace_minutes: 0, threshold: 0.5, margin: 0.08, retention_days: 30, challenges: ['blink', 'turn_left', 'turn_right'] });
});
