// End-to-end cases for the parent contact on the student page (issue 15): a student whose
// student-affairs parent number is a landline shows the "cannot receive WhatsApp" badge; a BK
// user edits it to a mobile number (a landline typed in the dialog is refused at the field),
// the card then offers the student-affairs data back, and taking it restores the landline.
// Only these: E2E_ONLY=parent-contact npm run e2e
import { randomBytes } from 'node:crypto';
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = randomBytes(3).toString('hex');
const BK = { username: `bk.ortu.${suffix}`, name: `Guru BK Ortu ${suffix}`, role: 'bk', email: '', phone: '', password: 'bk-ortu-Rahasia1' };
const LANDLINE = '021-5551234';
const PARENT = 'Bapak Hartono';
const MOBILE = '0813-2222-3333';

/**
 * Adds a student to this run's database as a sync would leave it (students only come from a
 * sync, and this file must run alone too): parent contact from student affairs, a landline.
 */
function insertStudent(userId) {
  const sql = databaseOf(BK.username, userId);
  const sourceId = 910000000 + Math.floor(Math.random() * 1000000);
  const classId = sql(`INSERT INTO classes (name, grade) VALUES ('X ORTU ${suffix}', 10) RETURNING id`).split('\n')[0];
  const id = sql(
    `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id, parent_name, parent_phone, synced_parent_name, synced_parent_phone, parent_contact_source)
     VALUES (${sourceId}, '01${sourceId}', 'OT${suffix}', 'Dimas Hartono ${suffix}', 'L', ${classId}, '${PARENT}', '${LANDLINE}', '${PARENT}', '${LANDLINE}', 'sync') RETURNING id`,
  ).split('\n')[0];
  return Number(id);
}

test('parent-contact: a landline is flagged, BK edits the number, and hands the contact back to student affairs', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = await apiCall(admin, 'POST', '/api/v1/users', BK);
  assertEqual(user.status, 201, `create BK user ${JSON.stringify(user.body)}`);
  await admin.context().close();
  const studentId = insertStudent(user.body.id);

  const page = await newPage(ctx);
  await signIn(page, BK.username, BK.password);
  await page.goto(`/students/${studentId}`);
  const card = page.getByTestId('parent-contact-card');
  await expectVisible(card, 'parent contact card');
  assertEqual(await card.getByTestId('parent-name').innerText(), PARENT, 'parent name');
  assert((await card.getByTestId('parent-phone').innerText()).includes(LANDLINE), 'landline shown');
  const badge = card.getByTestId('parent-phone-issue');
  await expectVisible(badge, 'landline badge');
  const badgeText = (await badge.innerText()).toLowerCase();
  assert(badgeText.includes('bukan nomor hp') && badgeText.includes('pesan whatsapp ke orang tua tidak bisa dikirim'), `badge text: ${badgeText}`);
  assertEqual(await card.getByRole('link', { name: /WhatsApp/ }).count(), 0, 'no WhatsApp link for a landline');
  assertEqual(await card.getByTestId('parent-synced').count(), 0, 'nothing to hand back while the contact follows student affairs');
  await shot(page, 'parent-contact-01-landline');

  // The dialog: a landline typed in is refused at the phone field (the server's words).
  await card.getByTestId('parent-contact-edit').click();
  const dialog = page.getByRole('dialog');
  const phoneInput = dialog.getByLabel('Nomor HP orang tua/wali');
  await phoneInput.fill('022 7654321');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await expectVisible(dialog.getByText('Ini nomor telepon rumah/kantor'), 'landline refused at the field');
  assertEqual(await phoneInput.getAttribute('aria-invalid'), 'true', 'phone field marked invalid');
  await shot(page, 'parent-contact-02-refused');

  await phoneInput.fill(MOBILE);
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expectVisible(card.getByRole('link', { name: /WhatsApp/ }), 'WhatsApp link for the mobile number');
  assertEqual(await card.getByRole('link', { name: /WhatsApp/ }).getAttribute('href'), 'https://wa.me/6281322223333', 'WhatsApp link');
  assertEqual(await card.getByTestId('parent-phone-issue').count(), 0, 'badge gone');
  assert((await card.getByTestId('parent-contact-source').innerText()).includes('Diubah di Tatib'), 'marked as edited');
  const synced = card.getByTestId('parent-synced');
  await expectVisible(synced, 'student-affairs data offered');
  assert((await synced.innerText()).includes(`Data kesiswaan: ${PARENT}, ${LANDLINE}`), `synced text: ${await synced.innerText()}`);
  await checkA11y(page, 'student page with an edited parent contact');
  await shot(page, 'parent-contact-03-edited');

  // Stored: a reload shows the edit.
  await page.reload();
  await expectVisible(card.getByRole('link', { name: /WhatsApp/ }), 'edit kept after reload');

  // Hand back: the student-affairs landline returns, with its badge.
  await card.getByTestId('parent-use-synced').click();
  await expectVisible(card.getByTestId('parent-phone-issue'), 'landline badge again');
  assert((await card.getByTestId('parent-phone').innerText()).includes(LANDLINE), 'landline restored');
  assert((await card.getByTestId('parent-contact-source').innerText()).includes('Dari data kesiswaan'), 'follows student affairs');
  assertEqual(await card.getByTestId('parent-synced').count(), 0, 'nothing left to hand back');
  const stored = await apiCall(page, 'GET', `/api/v1/students/${studentId}`);
  assertEqual(stored.body.parent_contact_source, 'sync', 'source sync');
  assertEqual(stored.body.parent_phone_issue, 'not_mobile', 'phone issue');

  // On a phone the card fits the width.
  const phone = await newPage(ctx, PHONE);
  await signIn(phone, BK.username, BK.password);
  await phone.goto(`/students/${studentId}`);
  await expectVisible(phone.getByTestId('parent-phone-issue'), 'badge on a phone');
  await noSidewaysScroll(phone, 'student page on a phone');
  await phone.getByTestId('parent-contact-card').scrollIntoViewIfNeeded();
  await shot(phone, 'parent-contact-04-phone');
});

test('parent-contact: handling types — "Panggilan Orang Tua" summons the parent; a new type can too, and stop', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/handling-types');
  const list = page.getByTestId('handling-list');
  const label = 'Memanggil orang tua (pesan WhatsApp ke orang tua)';
  const box = (name) => list.getByRole('checkbox', { name: `${label}: ${name}` });
  await expectVisible(box('Panggilan Orang Tua'), 'the default summons type');
  assert(await box('Panggilan Orang Tua').isChecked(), 'Panggilan Orang Tua summons the parent');
  assert(!(await box('Teguran Lisan').isChecked()), 'Teguran Lisan does not');

  const name = `Undangan Wali ${suffix}`;
  await page.getByLabel('Jenis penanganan baru').fill(name);
  await page.getByRole('checkbox', { name: label, exact: true }).check();
  await page.getByRole('button', { name: 'Tambah' }).click();
  await expectVisible(box(name), 'the new type');
  assert(await box(name).isChecked(), 'created summoning the parent');
  await shot(page, 'parent-contact-05-handling-types');

  // The box is the stored value: it turns once the server saved (a click, not uncheck(), which
  // wants the state to change at once).
  await box(name).click();
  await expectVisible(page.getByText(`${name} tidak lagi memanggil orang tua.`), 'saved notice');
  const list2 = await apiCall(page, 'GET', '/api/v1/handling-types');
  const row = list2.body.data.find((h) => h.name === name);
  assertEqual(row?.summons_parent, false, 'stored without the flag');
});
