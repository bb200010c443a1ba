// End-to-end cases of issue 23's screens on the points ledger: a counselor sends a warning letter
// to the parent from the letter page ("Kirim ke orang tua", once per level), and corrects a
// violation from its page ("Perbaiki"), the point history then saying "Diperbaiki".
// Only these: E2E_ONLY=ledger node e2e/run.mjs
import { randomBytes } from 'node:crypto';
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = randomBytes(3).toString('hex');
const BK = { username: `bk.ledger.${suffix}`, name: `Guru BK Ledger ${suffix}`, role: 'bk', email: '', phone: '', password: 'bk-ledger-Rahasia1' };
const WIDE = { width: 1366, height: 768 };


/** Adds a student to the run's database (the tatib_e2e_* one holding our BK user): students only come from a sync. */
function insertStudent(userId) {
  const sql = databaseOf(BK.username, userId);
  const sourceId = 910000000 + Math.floor(Math.random() * 1000000);
  const classId = sql(`INSERT INTO classes (name, grade) VALUES ('XI LG ${suffix}', 11) RETURNING id`).split('\n')[0];
  const id = sql(
    `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id, parent_name) VALUES (${sourceId}, '00${sourceId}', 'LG${suffix}', 'Dimas Saputra ${suffix}', 'L', ${classId}, 'Bapak Saputra') RETURNING id`,
  ).split('\n')[0];
  return { id: Number(id), name: `Dimas Saputra ${suffix}` };
}

let seeded = null;

/** Once per run: the BK user, a 30- and a 10-point type, a student with 60 points and their letter. */
async function seed(ctx) {
  if (seeded) return seeded;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = await apiCall(admin, 'POST', '/api/v1/users', BK);
  assertEqual(user.status, 201, `create BK user ${JSON.stringify(user.body)}`);
  const cats = await apiCall(admin, 'GET', '/api/v1/violation-categories');
  const type = async (name, points) => {
    const r = await apiCall(admin, 'POST', '/api/v1/violation-types', { name: `${name} ${suffix}`, points, category_id: cats.body.data[0].id, default_sanction: '', description: '' });
    assertEqual(r.status, 201, `create type ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const t30 = await type('Membolos LG', 30);
  const t10 = await type('Tidak membawa buku LG', 10);
  const student = insertStudent(user.body.id);
  await admin.context().close();
  const bk = await newPage(ctx);
  await signIn(bk, BK.username, BK.password);
  const rec = async () => apiCall(bk, 'POST', '/api/v1/violations', { student_id: student.id, type_ids: [t30.id], location: 'Kantin', description: 'Uji ledger' });
  const first = await rec();
  const second = await rec();
  assertEqual(second.status, 201, `second violation ${JSON.stringify(second.body)}`);
  assertEqual(second.body.letters.length, 1, 'SP 1 at 60 points');
  await bk.context().close();
  seeded = { student, t10, t30, letter: second.body.letters[0], violation: first.body.violations[0] };
  return seeded;
}

async function bkPage(ctx, viewport, lang = 'id') {
  const page = await newPage(ctx, viewport);
  await signIn(page, BK.username, BK.password);
  if (lang !== 'id') await page.evaluate((l) => localStorage.setItem('tatib.language', l), lang);
  return page;
}

test('ledger: a counselor sends the letter to the parent from the letter page, once for its level', async (ctx) => {
  const { letter } = await seed(ctx);
  const page = await bkPage(ctx, WIDE);
  await page.goto(`/surat-peringatan/${letter.id}`);
  await expectVisible(page.getByTestId('letter-page'), 'letter page');
  await page.getByTestId('letter-send').click();
  const dialog = page.getByRole('dialog', { name: 'Kirim surat ke orang tua?' });
  await expectVisible(dialog, 'confirmation');
  await shot(page, 'ledger-10-send-confirm-id');
  await page.getByTestId('letter-send-confirm').click();
  await expectVisible(page.getByTestId('letter-sent-note'), 'sent note');
  assertEqual(await page.getByTestId('letter-send').count(), 0, 'no second send at the same level');
  await expectVisible(page.getByTestId('letter-history').getByText('Dikirim ke orang tua'), 'sent in the history');
  const server = await apiCall(page, 'GET', `/api/v1/warning-letters/${letter.id}`);
  assertEqual(server.body.sent_level, letter.level, 'sent at its level');
  assert(Array.isArray(server.body.levels_covered) && server.body.levels_covered.includes(letter.level), `levels ${server.body.levels_covered}`);
  const again = await apiCall(page, 'POST', `/api/v1/warning-letters/${letter.id}/send`);
  assertEqual(again.status, 409, 'the same level is sent once');
  await checkA11y(page, 'letter page, sent');
  await shot(page, 'ledger-11-sent-id');
});

test('ledger: a violation is corrected from its page; points follow the type and the point history says so', async (ctx) => {
  const { violation, t10, student } = await seed(ctx);
  for (const [lang, viewport] of [['id', WIDE], ['en', PHONE]]) {
    const page = await bkPage(ctx, viewport, lang);
    await page.goto(`/violations/${violation.id}`);
    await page.getByTestId('correct-violation').click();
    const dialog = page.getByRole('dialog', { name: lang === 'id' ? 'Perbaiki pelanggaran' : 'Correct the violation' });
    await expectVisible(dialog, `correction form (${lang})`);
    if (lang === 'en') {
      await noSidewaysScroll(page, 'correction form on a phone');
      await shot(page, 'ledger-21-correct-phone-en');
      await page.keyboard.press('Escape');
      continue;
    }
    await dialog.getByTestId('correct-type').click();
    await page.getByRole('option', { name: new RegExp(t10.name) }).click();
    await dialog.getByLabel('Lokasi').fill('Perpustakaan');
    await shot(page, 'ledger-20-correct-id');
    await dialog.getByTestId('correct-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const server = await apiCall(page, 'GET', `/api/v1/violations/${violation.id}`);
    assertEqual(server.body.points, 10, 'points follow the new type');
    assertEqual(server.body.location, 'Perpustakaan', 'place corrected');
    const audit = await apiCall(page, 'GET', `/api/v1/point-audit?student_id=${student.id}`);
    assertEqual(audit.body.data[0].action, 'correct', 'one correct entry, the newest');
    assertEqual(audit.body.data[0].points_before - audit.body.data[0].points_after, 20, 'minus 20 points');
    await page.goto(`/riwayat-poin?student_id=${student.id}`);
    const newest = page.locator('[data-testid^="point-row-"]').first();
    await expectVisible(newest, 'the point history');
    assert((await newest.innerText()).includes('Diperbaiki'), `newest change: ${await newest.innerText()}`);
  }
});
