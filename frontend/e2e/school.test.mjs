// End-to-end cases for school data (issue 4): Settings → Integrations against the
// student-affairs simulator, the sync, Students, a student's page, Classes and the
// homeroom teacher's scoping. Registers its cases with harness.mjs's test() (run.mjs loads
// this file after cases.mjs); it starts `tatib-sim student-affairs` itself (bin/tatib-sim when built,
// else `go run`; TATIB_SIM_BIN overrides).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, assert, assertEqual, SCREENSHOT_DIR, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, expectVisible, freePort, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const SIM_TOKEN = 'sim-token';
const SIM_STUDENTS = 200;
const WALI = { username: 'wali.e2e', name: 'Wali Kelas Uji', password: 'wali-e2e-1' };
const WALI2 = { username: 'wali.e2e2', name: 'Wali Kedua Uji', password: 'wali-e2e-2' };
const BK = { username: 'bk.e2e', name: 'Guru BK Uji', password: 'bk-e2e-12' };

let sim = null;
let simURL = '';

async function startSimulator() {
  if (sim) return;
  const port = await freePort();
  const args = ['student-affairs', '-addr', `127.0.0.1:${port}`, '-token', SIM_TOKEN, '-students', String(SIM_STUDENTS)];
  const built = process.env.TATIB_SIM_BIN ?? path.join(repo, 'bin/tatib-sim');
  const [cmd, argv] = existsSync(built) ? [built, args] : ['go', ['run', './server/cmd/tatib-sim', ...args]];
  sim = spawn(cmd, argv, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let stderr = '';
  sim.stderr.on('data', (d) => (stderr += d));
  process.once('exit', () => sim?.kill('SIGKILL'));
  simURL = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (sim.exitCode !== null) throw new Error(`simulator exited with ${sim.exitCode}: ${stderr}`);
    try {
      const res = await fetch(`${simURL}/api/integration/students?per_page=1`, { headers: { Authorization: `Bearer ${SIM_TOKEN}` } });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`simulator not ready: ${stderr}`);
}

function stopSimulator() {
  if (sim && sim.exitCode === null) sim.kill('SIGTERM');
  sim = null;
}

/** Presses "Sync now" and waits for a new job (not the one shown before) to succeed. */
async function syncAgain(scope) {
  const before = await scope.getByTestId('sync-job').getAttribute('data-job-id');
  await scope.getByTestId('sync-now').click();
  await scope
    .locator(`[data-testid="sync-job"][data-status="succeeded"]:not([data-job-id="${before}"])`)
    .waitFor({ state: 'visible', timeout: 60_000 });
}

/** A full-page screenshot plus one of the first screen only (what a phone shows at once). */
async function phoneShot(page, name) {
  await shot(page, name);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-screen.png`) });
}

test('school: integrations — a wrong token is reported, the right one counts the students, sync brings them in', async (ctx) => {
  await startSimulator();
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Navigasi utama' });
  await nav.getByRole('link', { name: 'Pengaturan' }).click();
  await page.waitForURL(/\/settings\/school$/);
  await expectVisible(page.getByTestId('school-profile-section'), 'school profile');
  // The school profile: a field the server refuses shows its message at the field.
  await page.getByLabel('Nama sekolah').fill('SMK Negeri 1 Contoh');
  await page.getByLabel('Telepon').fill('bukan nomor');
  await page.getByTestId('school-save').click();
  await expectVisible(page.getByText('Nomor telepon tidak valid.'), 'server field error at the phone field');
  assertEqual(await page.getByLabel('Telepon').getAttribute('aria-invalid'), 'true', 'phone marked invalid');
  await page.getByLabel('Telepon').fill('022-1234567');
  // A NIP typed in its usual groups is taken as its 18 digits, not refused.
  await page.getByLabel('NIP kepala sekolah').fill('19680512 199003 1 004');
  await page.getByTestId('school-save').click();
  await expectVisible(page.getByText('Profil sekolah disimpan.'), 'profile saved');
  assertEqual((await apiCall(page, 'GET', '/api/v1/settings/school')).body.principal_nip, '196805121990031004', 'NIP stored as digits');
  // The academic-year start is a day-month date, Indonesian order.
  assertEqual(await page.getByTestId('school-year-start').innerText(), '1 Juli', 'academic year start shown as day month');
  // The sign-in page now names the school.
  const anon = await newPage(ctx);
  await anon.goto('/sign-in');
  await expectVisible(anon.getByTestId('sign-in-school').getByText('SMK Negeri 1 Contoh'), 'school name on the sign-in page');
  await shot(page, 'school-00-settings-school');
  await page.getByTestId('settings-tab-integrations').click();
  await page.waitForURL(/\/settings\/integrations$/);

  await page.getByLabel('URL sistem kesiswaan').fill(simURL);
  await page.getByTestId('sa-token-input').fill('token-salah');
  await page.getByTestId('sa-test').click();
  const result = page.getByTestId('sa-test-result');
  await expectVisible(result.and(page.locator('[data-ok="false"]')), 'failed test');
  const failure = await result.innerText();
  assert(/401|token|ditolak/i.test(failure), `wrong token reported: ${failure}`);
  assertEqual(await result.getAttribute('data-kind'), 'unauthorized', 'error kind');

  // A source answering with a server error is described in Tatib's words, never quoted.
  const leaky = await apiCall(page, 'POST', '/api/v1/settings/student-affairs/test', { url: `${simURL}/nothing-here`, token: SIM_TOKEN });
  assert(leaky.body.ok === false && !JSON.stringify(leaky.body).includes('Not Found'), `remote text not echoed: ${JSON.stringify(leaky.body)}`);

  // The daily time is 24-hour in the Indonesian interface.
  await page.getByTestId('sa-schedule-on').click();
  const schedule = page.getByTestId('student-affairs-section').locator('[data-testid="sa-schedule"]');
  await expectVisible(schedule, 'schedule time');
  const shown = await schedule.evaluate((el) => `${el.textContent} ${[...el.querySelectorAll('input')].map((i) => i.value).join(':')}`);
  assert(!/AM|PM/i.test(shown) && shown.includes('06:00'), `24-hour schedule time: ${shown}`);
  await page.getByTestId('sa-schedule-on').click();

  await page.getByTestId('sa-token-input').fill(SIM_TOKEN);
  await page.getByTestId('sa-test').click();
  await expectVisible(page.locator('[data-testid="sa-test-result"][data-ok="true"]'), 'successful test');
  const ok = await result.innerText();
  assert(ok.includes(String(SIM_STUDENTS)), `count shown: ${ok}`);

  await page.getByTestId('sa-save').click();
  await expectVisible(page.getByText('Pengaturan integrasi disimpan.'), 'saved notification');
  // After saving, the token is shown as text with copy and replace controls.
  await expectVisible(page.getByTestId('sa-token'), 'stored token');
  assertEqual(await page.getByTestId('sa-token').inputValue(), SIM_TOKEN, 'stored token text');
  await expectVisible(page.getByRole('button', { name: 'Salin token' }), 'copy button');

  await page.getByTestId('sync-now').click();
  const job = page.locator('[data-testid="sync-job"][data-status="succeeded"]');
  await job.waitFor({ state: 'visible', timeout: 60_000 });
  assertEqual(await page.getByTestId('sync-count-new').innerText(), String(SIM_STUDENTS), 'new students');
  assertEqual(await page.getByTestId('sync-count-classes').innerText(), '36', 'classes');
  assertEqual(await page.getByTestId('sync-count-departments').innerText(), '3', 'departments');
  await expectVisible(page.getByTestId('sync-history'), 'sync history');
  await shot(page, 'school-01-settings-integrations');

  // Again: nothing new, every student unchanged.
  await syncAgain(page);
  assertEqual(await page.getByTestId('sync-count-unchanged').innerText(), String(SIM_STUDENTS), 'unchanged on the second sync');

  const phone = await newPage(ctx, PHONE);
  await signIn(phone, 'admin', ADMIN_PASSWORD);
  await phone.goto('/settings/integrations');
  await expectVisible(phone.getByTestId('sync-job'), 'latest sync on the phone');
  await noSidewaysScroll(phone, 'integrations at 360 px');
  await phoneShot(phone, 'school-02-settings-integrations-phone');
});

test('school: students list, search by NIS, the student page', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Siswa' }).click();
  await page.waitForURL(/\/students$/);
  await expectVisible(page.getByTestId('students-table').locator('tbody tr'), 'student rows');
  const summary = await page.getByTestId('students-summary').innerText();
  assert(summary.includes(`dari ${SIM_STUDENTS}`), `summary counts every active student: ${summary}`);
  await shot(page, 'school-03-students');

  const pick = (await apiCall(page, 'GET', '/api/v1/students?per_page=1&page=57')).body.data[0];
  assert(pick?.nis, 'a student to look for');
  await page.getByLabel('Cari').fill(pick.nis);
  await page.waitForURL(new RegExp(`q=${pick.nis}`));
  await expectVisible(page.getByTestId(`student-row-${pick.nis}`), 'the student found by NIS');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="students-table"] tbody tr').length === 1);

  await page.getByTestId(`student-row-${pick.nis}`).getByRole('link').click();
  await page.waitForURL(new RegExp(`/students/${pick.id}$`));
  assertEqual(await page.getByTestId('student-name').innerText(), pick.full_name, 'student name');
  assertEqual(await page.getByTestId('student-nis').innerText(), pick.nis, 'NIS');
  assertEqual(await page.getByTestId('student-nisn').innerText(), pick.nisn, 'NISN');
  const birth = await page.getByTestId('student-birth').innerText();
  const [y, m, d] = pick.date_of_birth.split('-').map(Number);
  const months = ['Januari', 'Februari', 'Maret', 'April', 'Mei', 'Juni', 'Juli', 'Agustus', 'September', 'Oktober', 'November', 'Desember'];
  assertEqual(birth, `${pick.place_of_birth}, ${d} ${months[m - 1]} ${y}`, 'place and date of birth in Jakarta format');
  // Phones are tap-to-call, mobiles also WhatsApp (08… as 628…).
  if (pick.phone) {
    const tel = await page.getByTestId('student-phone').getByRole('link').first().getAttribute('href');
    assertEqual(tel, `tel:${pick.phone.replace(/\D/g, '')}`, 'tap-to-call link');
    if (pick.phone.startsWith('08')) {
      const wa = await page.getByTestId('student-phone').getByRole('link', { name: /WhatsApp/ }).getAttribute('href');
      assertEqual(wa, `https://wa.me/62${pick.phone.replace(/\D/g, '').slice(1)}`, 'WhatsApp link');
    }
  }
  await shot(page, 'school-04-student');

  const phone = await newPage(ctx, PHONE);
  await signIn(phone, 'admin', ADMIN_PASSWORD);
  await phone.goto('/students');
  await expectVisible(phone.getByTestId(/^student-row-/), 'student cards on the phone');
  await noSidewaysScroll(phone, 'students at 360 px');
  await phoneShot(phone, 'school-05-students-phone');
  await phone.goto(`/students/${pick.id}`);
  await expectVisible(phone.getByTestId('student-nis'), 'student page on the phone');
  await noSidewaysScroll(phone, 'student page at 360 px');
  await phoneShot(phone, 'school-06-student-phone');
});

test('school: classes — assign a homeroom teacher; a teacher with a class is refused at the field', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  for (const u of [WALI, WALI2]) {
    const res = await apiCall(page, 'POST', '/api/v1/users', { ...u, role: 'wali_kelas', email: '', phone: '' });
    assertEqual(res.status, 201, `create ${u.username}`);
  }
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Kelas' }).click();
  await page.waitForURL(/\/classes$/);
  const row = page.getByTestId('class-row-X TKJ 1');
  await expectVisible(row, 'class X TKJ 1');

  const assign = async (className, teacher) => {
    await page.getByRole('button', { name: `Atur wali kelas ${className}` }).click();
    const dialog = page.getByRole('dialog');
    const select = dialog.getByRole('textbox', { name: 'Wali kelas' });
    await select.waitFor({ state: 'visible' });
    // The list does not open by itself over the dialog's buttons.
    await page.waitForTimeout(300);
    assertEqual(await page.getByRole('listbox').count(), 0, 'teacher list closed until asked for');
    await select.click();
    await select.fill(teacher.name);
    await page.getByRole('option', { name: new RegExp(teacher.name) }).click();
    await dialog.getByRole('button', { name: 'Simpan' }).click();
    return dialog;
  };

  let dialog = await assign('X TKJ 1', WALI);
  await dialog.waitFor({ state: 'hidden' });
  await expectVisible(row.getByText(WALI.name), 'teacher in the row');
  await expectVisible(page.getByText(`${WALI.name} sekarang wali kelas X TKJ 1.`), 'assigned notification');

  // The same teacher for another class: the server's 422 names the class, at the field.
  dialog = await assign('X TKJ 2', WALI);
  await expectVisible(dialog.getByText(/sudah menjadi wali kelas X TKJ 1/), 'refusal at the field');
  const input = dialog.getByRole('textbox', { name: 'Wali kelas' });
  assertEqual(await input.getAttribute('aria-invalid'), 'true', 'field marked invalid');
  await shot(page, 'school-07-classes-assign-refused');
  await dialog.getByRole('button', { name: 'Batal' }).click();
  // Typing into a select that shows a name searches afresh, not from the middle of that name.
  await page.getByRole('button', { name: 'Atur wali kelas X TKJ 1' }).click();
  const again = page.getByRole('dialog').getByRole('textbox', { name: 'Wali kelas' });
  await again.click({ position: { x: 30, y: 10 } });
  await page.keyboard.type('Kedua');
  assertEqual(await again.inputValue(), 'Kedua', 'typing replaces the shown name');
  await expectVisible(page.getByRole('option', { name: new RegExp(WALI2.name) }), 'search finds the other teacher');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').getByRole('button', { name: 'Batal' }).click();
  await shot(page, 'school-08-classes');

  // Clicking a class lists its students.
  await row.getByRole('link', { name: 'X TKJ 1' }).click();
  await page.waitForURL(/\/students\?class_id=\d+$/);
  await expectVisible(page.getByTestId('students-table').locator('tbody tr'), 'students of the class');
  const classes = await page.locator('[data-testid="students-table"] tbody tr td:nth-child(5)').allInnerTexts();
  assert(classes.length > 0 && classes.every((c) => c === 'X TKJ 1'), `only X TKJ 1: ${classes.join(', ')}`);

  const phone = await newPage(ctx, PHONE);
  await signIn(phone, 'admin', ADMIN_PASSWORD);
  await phone.goto('/classes');
  await expectVisible(phone.getByTestId('class-row-X TKJ 1'), 'classes on the phone');
  await noSidewaysScroll(phone, 'classes at 360 px');
  await phoneShot(phone, 'school-09-classes-phone');
});

test('school: a homeroom teacher sees only their own class; a BK user can start the sync', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const x1 = (await apiCall(admin, 'GET', '/api/v1/classes')).body.data.find((c) => c.name === 'X TKJ 1');
  assert(x1 && x1.homeroom_teacher?.username === WALI.username, 'X TKJ 1 has the e2e homeroom teacher');
  assertEqual((await apiCall(admin, 'POST', '/api/v1/users', { ...BK, role: 'bk', email: '', phone: '' })).status, 201, 'create bk user');

  const page = await newPage(ctx);
  await signIn(page, WALI.username, WALI.password);
  await page.goto('/students');
  await expectVisible(page.getByTestId('own-class').getByText('Kelas Anda: X TKJ 1'), 'own class');
  assertEqual(await page.getByTestId('class-filter').count(), 0, 'no class filter for a homeroom teacher');
  await expectVisible(page.getByTestId('students-table').locator('tbody tr'), 'own students');
  const summary = await page.getByTestId('students-summary').innerText();
  assert(summary.endsWith(`dari ${x1.student_count}`), `exactly the class's students: ${summary} vs ${x1.student_count}`);
  const classes = await page.locator('[data-testid="students-table"] tbody tr td:nth-child(5)').allInnerTexts();
  assert(classes.every((c) => c === 'X TKJ 1'), `only X TKJ 1: ${classes.join(', ')}`);
  await shot(page, 'school-10-students-homeroom');

  // Another class's student: "not in your class", not their data; a missing id stays 404.
  const other = (await apiCall(admin, 'GET', '/api/v1/students?grade=12&per_page=1')).body.data[0];
  await page.goto(`/students/${other.id}`);
  await expectVisible(page.getByTestId('error-403').getByText('Siswa ini bukan anggota kelas Anda.'), '403 for another class');
  assertEqual(await page.getByText(other.full_name).count(), 0, 'nothing of the other student');
  await shot(page, 'school-10b-student-not-in-class');
  await page.goto('/students/99999999');
  await expectVisible(page.getByTestId('error-404'), '404 for a missing student');

  const bk = await newPage(ctx);
  await signIn(bk, BK.username, BK.password);
  await bk.goto('/students');
  await bk.getByTestId('open-sync').click();
  const dialog = bk.getByRole('dialog');
  await expectVisible(dialog.getByTestId('sync-job'), 'latest sync for BK');
  await syncAgain(dialog);
  await expectVisible(dialog.getByTestId('sync-count-unchanged'), 'BK sync counts');
  // BK sees the school profile read-only and no Integrations tab.
  await bk.keyboard.press('Escape');
  await bk.goto('/settings');
  await bk.waitForURL(/\/settings\/school$/);
  await expectVisible(bk.getByTestId('view-only'), 'one view-only mark');
  await expectVisible(bk.getByTestId('school-profile-view').getByText('SMK Negeri 1 Contoh'), 'profile as readable text');
  assertEqual(await bk.getByTestId('school-profile-section').getByRole('textbox').count(), 0, 'no disabled inputs');
  assertEqual(await bk.getByTestId('settings-tab-integrations').count(), 0, 'no integrations tab for BK');
  await shot(bk, 'school-11-settings-view-only');

  // With no student-affairs URL, BK is told to ask the admin; the admin gets the way to Settings.
  assertEqual((await apiCall(admin, 'PUT', '/api/v1/settings/student-affairs', { url: '' })).status, 200, 'switch the integration off');
  await bk.goto('/students');
  await expectVisible(bk.getByTestId('sync-not-configured').getByText(/Minta admin/), 'ask the admin');
  assertEqual(await bk.getByTestId('open-sync').count(), 0, 'no sync button without a URL');
  await shot(bk, 'school-12-sync-not-configured');
  await admin.goto('/students');
  await expectVisible(admin.getByTestId('sync-not-configured').getByRole('link', { name: /Pengaturan/ }), 'admin: link to Settings');
  await apiCall(admin, 'PUT', '/api/v1/settings/student-affairs', { url: simURL });
}, { timeout: 120_000 });

afterAll(stopSimulator);
