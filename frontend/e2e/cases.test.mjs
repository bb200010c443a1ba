// End-to-end cases for cases (issue 27): a counselor opens a bullying case with three students in
// three roles, classifies it, records the perpetrator's violation inside it, holds a session,
// records a restorative agreement and its completion, and closes it with the report PDF; a
// homeroom teacher (on a phone, in English) and the principal see only what their roles allow;
// /lapor at 360 px gives a code and PIN and the reporter reads the school's reply.
// E2E_ONLY=kasus npm run e2e
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.kasus${suffix}`, name: 'Guru BK Kasus', password: 'bk-kasus-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.kasus${suffix}`, name: 'Wali Kasus', password: 'wali-kasus-e2e-1', role: 'wali_kelas', email: '', phone: '' };
const HEAD = { username: `kepsek.kasus${suffix}`, name: 'Kepala Kasus', password: 'kepsek-kasus-e2e-1', role: 'kepala_sekolah', email: '', phone: '' };

let school = null;

/** Users by the API; a class of the homeroom teacher with the perpetrator and the victim, the witness in another class; a type. */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const ids = {};
  for (const u of [BK, WALI, HEAD]) {
    const res = await apiCall(admin, 'POST', '/api/v1/users', u);
    assertEqual(res.status, 201, `create ${u.username}: ${JSON.stringify(res.body)}`);
    ids[u.role] = res.body.id;
  }
  await admin.context().close();
  const sql = databaseOf(BK.username, ids.bk);
  const one = (q) => Number(sql(q).split('\n')[0]);
  const classId = one(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X KASUS ${suffix}', 10, ${ids.wali_kelas}) RETURNING id`);
  const otherId = one(`INSERT INTO classes (name, grade) VALUES ('XI KASUS ${suffix}', 11) RETURNING id`);
  const base = 700000 + Math.floor(Math.random() * 90000);
  const student = (n, i, cls) => {
    const name = `${n} Kasus ${suffix}`;
    return { id: one(`INSERT INTO students (source_id, nisn, nis, full_name, class_id) VALUES (${base + i}, '00${base + i}', '${base + i}', '${name}', ${cls}) RETURNING id`), name, nis: String(base + i) };
  };
  const s = { perp: student('Andi', 0, classId), victim: student('Budi', 1, classId), witness: student('Citra', 2, otherId) };
  const cat = one(`INSERT INTO violation_categories (name, colour) VALUES ('Kasus ${suffix}', 'red') RETURNING id`);
  const typeName = `Merundung ${suffix}`;
  one(`INSERT INTO violation_types (name, slug, points, category_id) VALUES ('${typeName}', 'merundung-${suffix}', 25, ${cat}) RETURNING id`);
  const handlingName = `Mediasi ${suffix}`;
  one(`INSERT INTO handling_types (name, sort_order) VALUES ('${handlingName}', 99) RETURNING id`);
  school = { ...s, classId, typeName, handlingName, sql };
  return school;
}

/** Picks an option of a Mantine Select (its input has the test id). */
async function pick(page, testId, option) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).first().click();
}

test('kasus: a counselor opens a bullying case with three students, handles it and closes it with the report PDF', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, BK.username, BK.password);
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Kasus', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/kasus');

  // Open the case: its facts; the page of the new case follows.
  await page.getByTestId('case-new').click();
  await page.getByTestId('case-title').fill(`Perundungan di kantin ${suffix}`);
  await pick(page, 'case-category', 'Perundungan');
  await page.getByTestId('case-place').fill('Kantin');
  await page.getByTestId('case-description').fill('Andi mengejek dan mendorong Budi; Citra melihat.');
  await page.getByTestId('case-save').click();
  await page.waitForURL(/\/kasus\/\d+$/);
  const caseId = Number(new URL(page.url()).pathname.split('/').pop());
  await expectVisible(page.locator('[data-testid="case-page"][data-level="full"]'), 'the whole case');

  // Three students in three roles: the first through the form, the others as the API takes them.
  await page.getByTestId('participant-add').click();
  const picker = page.getByTestId('student-picker');
  await picker.click();
  await picker.fill(s.perp.nis);
  await page.getByRole('option', { name: new RegExp(s.perp.name) }).click();
  await pick(page, 'participant-role', 'Terduga pelaku');
  await page.getByTestId('participant-save').click();
  for (const [st, role] of [[s.victim, 'korban'], [s.witness, 'saksi']]) {
    const res = await apiCall(page, 'POST', `/api/v1/cases/${caseId}/participants`, { kind: 'student', student_id: st.id, role });
    assertEqual(res.status, 201, `${role}: ${JSON.stringify(res.body)}`);
  }
  await page.reload();
  for (const role of ['terduga_pelaku', 'korban', 'saksi']) await expectVisible(page.locator(`[data-testid="case-person"][data-role="${role}"]`), role);

  // Classify, then record the perpetrator's violation inside the case: the ledger answers.
  await pick(page, 'case-classification', 'Pelanggaran tata tertib sekolah');
  await expectVisible(page.getByText('Klasifikasi disimpan.'), 'classified');
  await pick(page, 'case-violation-student', s.perp.name);
  await pick(page, 'case-violation-type', new RegExp(s.typeName));
  await page.getByTestId('case-violation-save').click();
  await expectVisible(page.getByText('Total poin tahun ini: 25', { exact: false }), 'points through the ledger');
  await expectVisible(page.getByTestId('case-violation').filter({ hasText: s.perp.name }), 'the violation in the case');
  // A victim gets no points.
  const refused = await apiCall(page, 'POST', `/api/v1/cases/${caseId}/violations`, { student_id: s.victim.id, type_ids: [1] });
  assertEqual(refused.status, 422, 'no violation for the victim');

  // Handling: a session with the perpetrator and the victim.
  await page.getByTestId('case-next-stage').click();
  await page.getByTestId('stage-notes').fill('Klasifikasi: pelanggaran tata tertib.');
  await page.getByTestId('stage-confirm').click();
  await expectVisible(page.locator('[data-testid="case-stage"][data-stage="handling"]'), 'in handling');
  await page.getByTestId('session-add').click();
  // The violations' handling types (issue 27): the session names one.
  await pick(page, 'session-handling-type', s.handlingName);
  // The MultiSelect's box covers its search input: click through it.
  await page.getByTestId('session-people').click({ force: true });
  await page.getByRole('option', { name: s.perp.name }).click();
  await page.getByRole('option', { name: s.victim.name }).click();
  await page.getByTestId('session-notes').fill('Mediasi: Andi mengakui dan meminta maaf.');
  await page.getByTestId('session-save').click();
  await expectVisible(page.getByTestId('case-session').filter({ hasText: 'Mediasi' }), 'the session');
  await expectVisible(page.getByTestId('case-session-type').filter({ hasText: s.handlingName }), 'the session names its handling type');

  // The restorative agreement (by the API) and its completion (on the page).
  const c = (await apiCall(page, 'GET', `/api/v1/cases/${caseId}`)).body;
  const perp = c.people.find((p) => p.role === 'terduga_pelaku').id;
  const today = new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
  const agreed = await apiCall(page, 'POST', `/api/v1/cases/${caseId}/agreements`, { agreed_on: today, notes: '', items: [{ participant_id: perp, action: 'Meminta maaf di depan kelas', due_on: today }] });
  assertEqual(agreed.status, 201, `agreement: ${JSON.stringify(agreed.body)}`);
  await page.reload();
  await page.getByTestId('agreement-done').click();
  await expectVisible(page.locator('[data-testid="agreement-item"][data-status="done"]'), 'the commitment done');
  await shot(page, 'cases-00-counselor-handling');

  // Conclusions, closed, and the closing report.
  for (const notes of ['Ditangani dengan mediasi.', 'Rekomendasi: pendampingan BK satu bulan.']) {
    await page.getByTestId('case-next-stage').click();
    await page.getByTestId('stage-notes').fill(notes);
    await page.getByTestId('stage-confirm').click();
    await page.getByTestId('stage-notes').waitFor({ state: 'hidden' });
  }
  await expectVisible(page.locator('[data-testid="case-stage"][data-stage="closed"]'), 'closed');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('case-report-pdf').click()]);
  const file = path.join(os.tmpdir(), `tatib-e2e-kasus-${process.pid}.pdf`);
  await download.saveAs(file);
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  assert(text.includes('LAPORAN PENANGANAN KASUS') && text.includes(s.perp.name), `the report:\n${text.slice(0, 600)}`);
  assert(text.includes('Rekomendasi: pendampingan BK satu bulan.') && text.includes('terlaksana'), 'recommendations and the outcome');
  assert(!text.includes(s.victim.name) && !text.includes(s.witness.name), 'the report names no victim or witness');
  await page.context().close();
});

test('kasus: a homeroom teacher (phone, English) and the principal see only what their roles allow', async (ctx) => {
  const s = await setUp(ctx);
  const caseId = Number(s.sql(`SELECT case_id FROM case_participants WHERE student_id = ${s.perp.id} LIMIT 1`));
  assert(caseId > 0, 'the case of the first test');

  const wali = await newPage(ctx, PHONE);
  await signIn(wali, WALI.username, WALI.password);
  await wali.evaluate(() => localStorage.setItem('tatib.language', 'en'));
  await wali.goto('/kasus');
  await expectVisible(wali.getByTestId('case-row').filter({ hasText: 'Perundungan case' }), 'the case, by category, untitled');
  await noSidewaysScroll(wali, 'cases on a phone');
  await wali.getByTestId('case-link').first().click();
  await expectVisible(wali.locator('[data-testid="case-page"][data-level="homeroom"]'), 'the homeroom view');
  await expectVisible(wali.getByText('You see only your class', { exact: false }), 'what is withheld, in English');
  const names = await wali.getByTestId('case-person-name').allInnerTexts();
  assertEqual(names.sort().join(', '), [s.perp.name, s.victim.name].sort().join(', '), 'their own students only');
  assertEqual(await wali.getByTestId('case-sessions').count(), 0, 'no sessions');
  assertEqual(await wali.getByTestId('case-description-text').count(), 0, 'no description');
  await noSidewaysScroll(wali, 'a case on a phone');
  await shot(wali, 'cases-01-homeroom-phone-en');
  await wali.context().close();

  const head = await newPage(ctx, DESKTOP);
  await signIn(head, HEAD.username, HEAD.password);
  await head.goto('/dashboard');
  await expectVisible(head.getByTestId('dash-cases'), 'case counts on the dashboard');
  await expectVisible(head.getByTestId('dash-cases-category').getByText('Perundungan'), 'by category');
  const one = await apiCall(head, 'GET', `/api/v1/cases/${caseId}`);
  assertEqual(one.status, 404, 'the principal does not read the case');
  await head.goto('/kasus');
  await expectVisible(head.getByTestId('case-empty'), 'no case listed for the principal');
  // The semester report of the whole school counts the cases, naming none.
  await head.goto('/laporan');
  await expectVisible(head.getByTestId('report-cases').getByText('Perundungan'), 'the report counts cases by category');
  await expectVisible(head.getByTestId('report-cases').getByText('Dirujuk ke Pokja'), 'and those referred to the Pokja');
  assertEqual(await head.getByText(`Perundungan di kantin ${suffix}`).count(), 0, 'no case title in the report');
  await head.getByTestId('report-cases').scrollIntoViewIfNeeded();
  await shot(head, 'cases-03-report-counts');
  await head.context().close();

  // Every read is in the access log, which the administrator reads.
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const log = await apiCall(admin, 'GET', `/api/v1/cases/${caseId}/access-log`);
  assertEqual(log.status, 200, 'the access log');
  assert(log.body.some((e) => e.what === 'view' && e.level === 'homeroom'), 'the homeroom teacher\'s read is logged');
  assert(log.body.some((e) => e.what === 'report_pdf'), 'the report download is logged');
  await admin.context().close();
});

test('kasus: /lapor at 360 px gives a code and PIN, and the reporter reads the reply', async (ctx) => {
  await setUp(ctx);
  const phone = await newPage(ctx, PHONE);
  await phone.goto('/lapor');
  await expectVisible(phone.getByTestId('lapor-submit'), 'the form without signing in');
  await phone.getByTestId('language-switch').getByText('EN').click();
  await expectVisible(phone.getByRole('button', { name: 'Send the report' }), 'the form in English');
  await pick(phone, 'lapor-category', 'Perundungan');
  await phone.getByTestId('lapor-description').fill(`Someone is bullied every break ${suffix}`);
  await noSidewaysScroll(phone, '/lapor');
  await phone.getByTestId('lapor-submit').click();
  const code = (await phone.getByTestId('lapor-code').innerText()).trim();
  const pin = (await phone.getByTestId('lapor-pin').innerText()).trim();
  assert(/^[A-Z2-9]{10}$/.test(code) && /^\d{6}$/.test(pin), `code ${code}, pin ${pin}`);
  await shot(phone, 'cases-02-lapor-phone');

  // A counselor finds it among the cases and replies from the case page.
  const bk = await newPage(ctx, DESKTOP);
  await signIn(bk, BK.username, BK.password);
  const list = await apiCall(bk, 'GET', '/api/v1/cases?stage=identification');
  const found = list.body.data.find((c) => c.source === 'anonymous_report');
  assert(found, 'the report is a case in identification');
  // The report told the counselor; its notification opens the case.
  await bk.goto('/notifications');
  await bk.getByText(`Laporan anonim baru #${found.id}`).click();
  await bk.waitForURL(new RegExp(`/kasus/${found.id}$`));
  await expectVisible(bk.getByText(`Someone is bullied every break ${suffix}`), 'the report on the case page');
  await bk.getByTestId('case-reply-text').fill('Terima kasih, kami segera menindaklanjuti.');
  await bk.getByTestId('case-reply-send').click();
  await expectVisible(bk.getByTestId('case-report-message'), 'the reply in the thread');
  await bk.context().close();

  await phone.goto('/lapor/lacak');
  await phone.getByTestId('lacak-code').fill(code);
  await phone.getByTestId('lacak-pin').fill(pin);
  await phone.getByTestId('lacak-open').click();
  await expectVisible(phone.locator('[data-testid="lacak-message"][data-sender="school"]').getByText('Terima kasih', { exact: false }), 'the reply');
  await expectVisible(phone.getByTestId('lacak-status').getByText('Received'), 'the status in English');
  await noSidewaysScroll(phone, '/lapor/lacak');
  await phone.context().close();
});
