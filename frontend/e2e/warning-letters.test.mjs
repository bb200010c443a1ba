// End-to-end cases for warning letters (SP), the SP progress bar, the point history and the
// letterhead settings (issue 11). A BK user records violations through the API until one student
// crosses SP 1; the letter then shows in the list, its PDF downloads as a PDF, its status steps
// to printed, and the student page shows the progress. Only these: E2E_ONLY=warning-letters npm run e2e
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = randomBytes(3).toString('hex');
const BK = { username: `bk.sp.${suffix}`, name: `Guru BK SP ${suffix}`, role: 'bk', email: '', phone: '', password: 'bk-sp-Rahasia1' };
const WIDE = { width: 1366, height: 768 };


/**
 * Adds a student (and a class) to this run's database: students only come from a sync, and this
 * file must run alone too. The run's database is the tatib_e2e_* one that holds our BK user.
 */
function insertStudent(userId) {
  const sql = databaseOf(BK.username, userId);
  const sourceId = 900000000 + Math.floor(Math.random() * 1000000);
  const classId = sql(`INSERT INTO classes (name, grade) VALUES ('XI SP ${suffix}', 11) RETURNING id`).split('\n')[0];
  const id = sql(
    `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id, parent_name) VALUES (${sourceId}, '00${sourceId}', 'SP${suffix}', 'Rina Wulandari ${suffix}', 'P', ${classId}, 'Bapak Wulandari') RETURNING id`,
  ).split('\n')[0];
  return { id: Number(id), name: `Rina Wulandari ${suffix}`, classId: Number(classId) };
}

let seeded = null;

/** Once per run: the BK user, a 30-point type, a student with 60 points (SP 1 at 50). */
async function seed(ctx) {
  if (seeded) return seeded;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = await apiCall(admin, 'POST', '/api/v1/users', BK);
  assertEqual(user.status, 201, `create BK user ${JSON.stringify(user.body)}`);
  const cats = await apiCall(admin, 'GET', '/api/v1/violation-categories');
  assertEqual(cats.status, 200, 'GET /violation-categories');
  const type = await apiCall(admin, 'POST', '/api/v1/violation-types', { name: `Membolos SP ${suffix}`, points: 30, category_id: cats.body.data[0].id, default_sanction: '', description: '' });
  assertEqual(type.status, 201, `create type ${JSON.stringify(type.body)}`);
  const student = insertStudent(user.body.id);
  await admin.context().close();

  const bk = await newPage(ctx);
  await signIn(bk, BK.username, BK.password);
  const first = await apiCall(bk, 'POST', '/api/v1/violations', { student_id: student.id, type_ids: [type.body.id], location: 'Kantin', description: 'Uji SP' });
  assertEqual(first.status, 201, `first violation ${JSON.stringify(first.body)}`);
  assertEqual(first.body.letters.length, 0, 'no letter at 30 points');
  const second = await apiCall(bk, 'POST', '/api/v1/violations', { student_id: student.id, type_ids: [type.body.id], location: 'Kelas', description: 'Uji SP lagi' });
  assertEqual(second.status, 201, `second violation ${JSON.stringify(second.body)}`);
  assertEqual(second.body.letters.length, 1, 'SP 1 issued at 60 points');
  assertEqual(second.body.points.total, 60, 'total after');
  await bk.context().close();
  // Thresholds may have been edited by earlier cases (the SP thresholds screen's): expect what
  // the server says the next level is, not the defaults.
  seeded = { student, letter: second.body.letters[0], typeId: type.body.id, points: second.body.points };
  return seeded;
}

/** Signs the BK user in on a fresh page of the given size, in the given language. */
async function bkPage(ctx, viewport, lang = 'id') {
  const page = await newPage(ctx, viewport);
  await signIn(page, BK.username, BK.password);
  // The sign-in helper speaks Indonesian; the language is switched after, for the next page load.
  if (lang !== 'id') await page.evaluate((l) => localStorage.setItem('tatib.language', l), lang);
  return page;
}

/**
 * Waits for notifications to go. Their close button has no accessible name yet (the app's
 * <Notifications>, outside this feature): axe would flag it, not this feature's screens.
 */
async function noNotifications(page) {
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
}

test('warning-letters: the letter issued at SP 1 is listed, its PDF is a PDF, it steps to printed with who and when', async (ctx) => {
  const { student, letter } = await seed(ctx);
  const page = await bkPage(ctx, WIDE);
  await page.goto('/surat-peringatan');
  const row = page.getByTestId(`letter-row-${letter.id}`);
  await expectVisible(row, 'the letter row');
  // Badges are set in capitals by the theme: compare without case.
  const text = (await row.innerText()).toLowerCase();
  assert(text.includes(student.name.toLowerCase()), `student in the row: ${text}`);
  assert(text.includes('sp 1'), `level in the row: ${text}`);
  assert(text.includes('draf'), `status in the row: ${text}`);
  assert(text.includes(`xi sp ${suffix}`), `class in the row: ${text}`);
  await checkA11y(page, 'letters list');
  await shot(page, 'warning-letters-10-list-id');

  // The PDF: saved through the platform seam (a download in the browser), and it is a PDF.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`letter-pdf-${letter.id}`).click()]);
  assert(/^SP1-.*\.pdf$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  const bytes = await readFile(await download.path());
  assertEqual(bytes.subarray(0, 4).toString('latin1'), '%PDF', 'starts with %PDF');

  // Filters: status "Dicetak" hides the draft, clearing shows it again. This student's letters
  // only: a case before this one in the same worker may have printed letters of its own.
  await page.goto(`/surat-peringatan?status=printed&student_id=${student.id}`);
  await expectVisible(page.getByTestId('letters-empty'), 'no printed letters yet');
  await page.getByTestId('clear-filters').click();
  await expectVisible(row, 'back after clearing');

  // One step, after a confirmation. The seed's notification toasts go first: a clean-clone CI
  // run once lost the open dialog before its button was clicked (not reproduced in 3 runs alone);
  // if it is gone, the case says so in its output and opens it once more.
  await noNotifications(page);
  const dialog = page.getByRole('dialog', { name: 'Tandai surat sudah dicetak?' });
  await page.getByTestId(`letter-step-${letter.id}`).click();
  await expectVisible(dialog, 'confirmation');
  await shot(page, 'warning-letters-11-confirm-id');
  try {
    await dialog.getByTestId('letter-step-confirm').click({ timeout: 5_000 });
  } catch {
    const rows = await page.getByTestId('letters-table').innerText().catch(() => '(no table)');
    console.log(`# the step dialog closed by itself; the list now reads: ${rows.replace(/\s+/g, ' ').slice(0, 400)}`);
    await page.getByTestId(`letter-step-${letter.id}`).click();
    await dialog.getByTestId('letter-step-confirm').click();
  }
  await page.waitForFunction((id) => document.querySelector(`[data-testid="letter-row-${id}"]`)?.getAttribute('data-status') === 'printed', letter.id);
  assertEqual(await page.getByTestId(`letter-step-${letter.id}`).innerText(), 'Tandai ditandatangani', 'next step offered');
  const server = await apiCall(page, 'GET', `/api/v1/warning-letters/${letter.id}`);
  assertEqual(server.body.status, 'printed', 'printed on the server');

  // The letter page: the history says who and when.
  await page.getByTestId(`letter-link-${letter.id}`).click();
  await expectVisible(page.getByTestId('letter-page'), 'letter page');
  await expectVisible(page.getByTestId('letter-history').getByText('Dicetak'), 'printed in the history');
  const history = await page.getByTestId('letter-history').innerText();
  assert(history.includes('Draf') && history.includes('Dicetak'), `history: ${history}`);
  assert(history.includes(BK.name) || history.includes(BK.username), `who printed it: ${history}`);
  await noNotifications(page);
  await checkA11y(page, 'letter page');
  await shot(page, 'warning-letters-12-letter-id');
});

test('warning-letters: the student page shows the SP progress, recent violations and letters; the point history says what changed', async (ctx) => {
  const { student, letter, points } = await seed(ctx);
  const page = await bkPage(ctx, WIDE);
  await page.goto(`/students/${student.id}`);
  const progress = page.getByTestId('student-points');
  await expectVisible(progress, 'points progress');
  assertEqual(await page.getByTestId('student-points-total').innerText(), '60', 'total');
  assertEqual((await page.getByTestId('student-points-level').innerText()).toUpperCase(), 'SP 1', 'level');
  assertEqual(await page.getByTestId('student-points-hint').innerText(), `${points.points_to_next} poin lagi menuju SP 2`, 'to the next level');
  assertEqual(await page.getByTestId('student-points-bar').getAttribute('data-percent'), String(Math.round((60 / points.next_level_min_points) * 1000) / 10), 'bar toward SP 2');
  const violations = page.getByTestId('student-violations');
  assertEqual(await violations.getByRole('link').count(), 2, 'two recent violations');
  await expectVisible(page.getByTestId(`student-letter-${letter.id}`), 'the letter on the student page');
  const record = await page.getByTestId('student-record-violation').getAttribute('href');
  assert(record.endsWith(`student_id=${student.id}`), `record link ${record}`);
  await checkA11y(page, 'student page');
  await shot(page, 'warning-letters-20-student-id');

  await page.getByTestId('student-point-history').click();
  await expectVisible(page.getByTestId('point-audit-table'), 'point history');
  const rows = page.locator('[data-testid^="point-row-"]');
  await expectVisible(rows, 'a point change');
  assertEqual(await rows.count(), 2, 'two changes for this student');
  const newest = await rows.first().innerText();
  assert(newest.includes('Dicatat') && newest.includes('30') && newest.includes('60'), `newest change: ${newest}`);
  await checkA11y(page, 'point history');
  await shot(page, 'warning-letters-21-point-history-id');
});

test('warning-letters: phone width (360 px) and English — cards, no sideways scroll, 44 px buttons', async (ctx) => {
  const { student, letter, points } = await seed(ctx);
  for (const lang of ['id', 'en']) {
    const page = await bkPage(ctx, PHONE, lang);
    await page.goto('/surat-peringatan');
    const card = page.getByTestId(`letter-row-${letter.id}`);
    await expectVisible(card, `letter card (${lang})`);
    await noSidewaysScroll(page, `letters ${lang}`);
    const pdf = await page.getByTestId(`letter-pdf-${letter.id}`).boundingBox();
    assert(pdf.height >= 44, `PDF button is ${pdf.height}px high`);
    if (lang === 'en') assert((await card.innerText()).includes('Download PDF'), 'English labels');
    await shot(page, `warning-letters-30-list-phone-${lang}`);

    await page.goto(`/students/${student.id}`);
    await expectVisible(page.getByTestId('student-points'), `progress (${lang})`);
    await noSidewaysScroll(page, `student ${lang}`);
    if (lang === 'en') assertEqual(await page.getByTestId('student-points-hint').innerText(), `${points.points_to_next} more points to SP 2`, 'English hint');
    await shot(page, `warning-letters-31-student-phone-${lang}`);

    await page.goto(`/riwayat-poin?student_id=${student.id}`);
    await expectVisible(page.getByTestId('point-audit-table'), `point history (${lang})`);
    await noSidewaysScroll(page, `point history ${lang}`);
    await shot(page, `warning-letters-32-point-history-phone-${lang}`);
    await page.context().close();

    const wide = await bkPage(ctx, WIDE, lang);
    await wide.goto('/surat-peringatan');
    await expectVisible(wide.getByTestId(`letter-row-${letter.id}`), `letters wide (${lang})`);
    await shot(wide, `warning-letters-33-list-wide-${lang}`);
    await wide.goto(`/students/${student.id}`);
    await expectVisible(wide.getByTestId('student-points'), `student wide (${lang})`);
    await shot(wide, `warning-letters-34-student-wide-${lang}`);
    await wide.context().close();
  }
});

test('warning-letters: the school profile takes a letterhead logo and the paper size', async (ctx) => {
  const page = await newPage(ctx, WIDE);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/settings');
  const logo = page.getByTestId('letterhead-logo');
  await expectVisible(logo, 'logo block');
  // A 16×16 PNG, picked through the file chooser the platform opens.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAIElEQVR4nGIRCWBgYOAnHjExkAhGNYxqGDoaAAEAAP//CF0BaPG7nlQAAAAASUVORK5CYII=', 'base64');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('letterhead-logo-upload').click()]);
  await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await expectVisible(page.getByTestId('letterhead-logo-preview'), 'logo preview');
  const src = await page.getByTestId('letterhead-logo-preview').getAttribute('src');
  assert(src.startsWith('/api/v1/school/logo'), `preview from the public logo: ${src}`);

  await page.getByLabel('Nama sekolah').fill(`SMK Uji SP ${suffix}`);
  await page.getByTestId('school-paper-size').getByText('F4 (215 × 330 mm)').click();
  await page.getByTestId('school-save').click();
  await expectVisible(page.getByText('Profil sekolah disimpan.'), 'saved');
  const profile = await apiCall(page, 'GET', '/api/v1/settings/school');
  assertEqual(profile.body.paper_size, 'F4', 'paper size saved');
  await shot(page, 'warning-letters-40-letterhead-settings');

  await page.getByTestId('letterhead-logo-remove').click();
  await page.getByTestId('letterhead-logo-remove-confirm').click();
  await page.getByTestId('letterhead-logo-preview').waitFor({ state: 'detached' });
  const pub = await apiCall(page, 'GET', '/api/v1/school/public');
  assertEqual(pub.body.logo_url, null, 'logo removed');
});

test('warning-letters: chosen letters print as one PDF, and the QR code\'s page verifies a letter without signing in', async (ctx) => {
  const { student, typeId } = await seed(ctx);
  const page = await bkPage(ctx, WIDE);
  // One more violation: whatever letters the student has now, they print together.
  const more = await apiCall(page, 'POST', '/api/v1/violations', { student_id: student.id, type_ids: [typeId], location: 'Kelas', description: 'Uji cetak' });
  assertEqual(more.status, 201, `violation ${JSON.stringify(more.body)}`);
  const before = await apiCall(page, 'GET', `/api/v1/warning-letters?student_id=${student.id}`);
  const printable = before.body.data.filter((l) => l.status !== 'withdrawn');
  assert(printable.length >= 1, 'the student has a letter to print');

  await page.goto(`/surat-peringatan?student_id=${student.id}`);
  await expectVisible(page.getByTestId(`letter-row-${printable[0].id}`), 'the letter row');
  await page.getByTestId('letters-choose-page').check();
  assertEqual(await page.getByTestId('letters-chosen').innerText(), `${printable.length} surat dipilih`, 'chosen count');
  await noNotifications(page);
  await page.getByTestId('letters-print-chosen').click();
  const dialog = page.getByTestId('letters-print-dialog');
  await expectVisible(dialog.getByTestId('letters-print-confirm'), 'the print confirmation');
  await page.waitForTimeout(300); // the modal's opening transition
  await shot(page, 'warning-letters-50-print-confirm-id');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('letters-print-confirm').click()]);
  assert(/^Surat-Peringatan-\d{4}-\d{2}-\d{2}-\d+-surat\.pdf$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  const bytes = await readFile(await download.path());
  assertEqual(bytes.subarray(0, 4).toString('latin1'), '%PDF', 'starts with %PDF');

  // Every chosen letter is numbered and printed (or further on).
  const after = await apiCall(page, 'GET', `/api/v1/warning-letters?student_id=${student.id}`);
  const printed = after.body.data.filter((l) => printable.some((p) => p.id === l.id));
  for (const l of printed) {
    assert(l.number && l.verify_code && l.status !== 'draft', `letter ${l.id} after the print: ${l.status} ${l.number}`);
  }
  await expectVisible(page.getByTestId(`letter-number-${printed[0].id}`), 'the number in the list');

  // The verification page, in a browser that never signed in.
  const anon = await newPage(ctx, PHONE);
  await anon.goto(`/verifikasi/${printed[0].verify_code}`);
  const result = anon.getByTestId('verify-result');
  await expectVisible(result, 'the verification result');
  const text = await result.innerText();
  assert(text.includes(printed[0].number), `number on the page: ${text}`);
  assert(text.includes('R. W.'), `initials on the page: ${text}`);
  assert(!text.includes('Rina') && !text.includes(student.name), `only initials: ${text}`);
  await noSidewaysScroll(anon, 'verification page');
  await shot(anon, 'warning-letters-51-verify-phone-id');
});
