// The end-to-end cases, in order: later cases use the user the earlier ones create.
import { assert, assertEqual, shot, test } from './harness.mjs';
import { PHONE, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

export const ADMIN_PASSWORD = 'admin-e2e-Rahasia1';
const STAFF = { username: 'guru.staf', name: 'Guru Staf Uji', password: 'awal123', newPassword: 'baru12345' };

function jakartaToday(lang) {
  return new Intl.DateTimeFormat(lang, { timeZone: 'Asia/Jakarta', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
    .format(new Date())
    .replace(/^(\S+?),? /, '$1, ');
}

test('sign-in: a wrong password shows the server message, the right one opens where the work is', async (ctx) => {
  const page = await newPage(ctx);
  await page.goto('/users');
  await page.waitForURL(/\/sign-in\?next=%2Fusers/);
  await expectVisible(page.getByRole('button', { name: 'Masuk' }), 'Indonesian sign-in button');
  assertEqual(await page.getAttribute('html', 'lang'), 'id', 'page language');
  await shot(page, '01-sign-in');

  await page.getByLabel('Nama pengguna').fill('admin');
  await page.getByLabel('Kata sandi').fill('salah-sekali');
  await page.getByRole('button', { name: 'Masuk' }).click();
  const alert = page.getByTestId('sign-in-error');
  await expectVisible(alert, 'sign-in error');
  assert((await alert.innerText()).includes('Nama pengguna atau kata sandi salah'), 'server message shown');
  await shot(page, '02-sign-in-error');

  // Language switch: English, then back to Indonesian.
  await page.getByTestId('language-switch').getByText('EN').click();
  await expectVisible(page.getByRole('button', { name: 'Sign in' }), 'English sign-in button');
  await page.getByTestId('language-switch').getByText('ID').click();

  await page.getByLabel('Kata sandi').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Masuk' }).click();
  await page.waitForURL(/\/users$/);

  // "/" is the dashboard, which has figures for the administrator: no "coming soon" card.
  await page.goto('/');
  await page.waitForURL(/\/dashboard$/);
  await page.goto('/dashboard');
  await page.waitForURL(/\/dashboard$/);
  assertEqual(await page.getByTestId('dashboard-placeholder').count(), 0, 'no placeholder card');
  const today = await page.getByTestId('today').first().innerText();
  assertEqual(today, jakartaToday('id-ID'), 'header date in Jakarta');
  await shot(page, '03-dashboard');
});

test('users: create a user; a duplicate username is shown at the field', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Pengguna' }).click();
  await page.waitForURL(/\/users$/);
  await expectVisible(page.getByTestId('user-row-admin'), 'admin row');

  const fillForm = async (u) => {
    await page.getByRole('button', { name: 'Tambah pengguna' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nama pengguna').fill(u.username);
    await dialog.getByLabel('Nama lengkap').fill(u.name);
    await dialog.getByRole('textbox', { name: 'Peran' }).click();
    await page.getByRole('option', { name: 'Staf', exact: true }).click();
    await dialog.getByLabel('Email').fill(u.email ?? '');
    await dialog.getByLabel('Kata sandi').fill(u.password);
    return dialog;
  };

  let dialog = await fillForm(STAFF);
  await shot(page, '04-user-form');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expectVisible(page.getByTestId(`user-row-${STAFF.username}`), 'new user row');

  // Bad input: the server's field errors appear at the fields, first the email…
  dialog = await fillForm({ ...STAFF, name: 'Orang Lain', email: 'bukan-email' });
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await expectVisible(dialog.getByText('Alamat email tidak valid.'), 'email field error');
  assertEqual(await dialog.getByLabel('Email').getAttribute('aria-invalid'), 'true', 'email marked invalid');
  await shot(page, '05-user-form-field-errors');
  // …then, with a good email, the username that is already taken.
  await dialog.getByLabel('Email').fill('orang.lain@sekolah.sch.id');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await expectVisible(dialog.getByText('Nama pengguna sudah dipakai.'), 'duplicate username error');
  assertEqual(await dialog.getByLabel('Nama pengguna').getAttribute('aria-invalid'), 'true', 'username marked invalid');
  await shot(page, '05b-user-form-duplicate');
  await dialog.getByRole('button', { name: 'Batal' }).click();

  // Search narrows the table.
  await page.getByLabel('Cari').fill('staf uji');
  await page.getByTestId('user-row-admin').waitFor({ state: 'detached' });
  await expectVisible(page.getByTestId(`user-row-${STAFF.username}`), 'search result');
  await page.getByLabel('Cari').fill('');
  await expectVisible(page.getByTestId('user-row-admin'), 'admin row again');
  await shot(page, '06-users');
});

test('users: reset a password (rules shown, mismatch refused), then sign in with it', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/users');
  // No reset for one's own row.
  await page.getByTestId('user-row-admin').getByRole('button').click();
  await expectVisible(page.getByRole('menuitem', { name: 'Ubah' }), 'edit item');
  assertEqual(await page.getByRole('menuitem', { name: 'Atur ulang kata sandi' }).count(), 0, 'reset items for own row');
  await page.keyboard.press('Escape');

  await page.getByTestId(`user-row-${STAFF.username}`).getByRole('button').click();
  await page.getByRole('menuitem', { name: 'Atur ulang kata sandi' }).click();
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByText('Kata sandi minimal 6 karakter.'), 'rule: min 6');
  await dialog.getByLabel(/^Kata sandi baru/).fill(STAFF.newPassword);
  await dialog.getByLabel('Ulangi kata sandi baru').fill('lain-sekali');
  await dialog.getByRole('button', { name: 'Atur ulang' }).click();
  await expectVisible(dialog.getByText('Konfirmasi kata sandi tidak cocok.'), 'mismatch error');
  await dialog.getByLabel('Ulangi kata sandi baru').fill(STAFF.newPassword);
  await shot(page, '07-reset-password');
  await dialog.getByRole('button', { name: 'Atur ulang' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expectVisible(page.getByText(`Kata sandi ${STAFF.name} telah diatur ulang.`), 'reset notification');

  const other = await newPage(ctx);
  await signIn(other, STAFF.username, STAFF.newPassword);
  await other.waitForURL(/\/students$/);
});

test('roles: a permission taken from a role gives its user the 403 page on the next navigation', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  await admin.getByRole('link', { name: 'Hak akses peran' }).click();
  await expectVisible(admin.getByTestId('roles-matrix'), 'matrix');
  // admin's column is all checked and locked.
  const adminBox = admin.getByTestId('perm-admin-users.view');
  assert(await adminBox.isChecked(), 'admin has users.view');
  assert(await adminBox.isDisabled(), 'admin column is locked');

  const staffUsersView = admin.getByTestId('perm-staff-users.view');
  assert(!(await staffUsersView.isChecked()), 'staff starts without users.view');
  await staffUsersView.check();
  await shot(admin, '08-roles-dirty');
  await admin.getByRole('button', { name: 'Simpan hak akses Staf' }).click();
  await expectVisible(admin.getByText('Hak akses Staf disimpan dan langsung berlaku.'), 'saved notification');
  await admin.getByRole('button', { name: 'Simpan hak akses Staf' }).waitFor({ state: 'detached' });
  await shot(admin, '09-roles');

  const staff = await newPage(ctx);
  await signIn(staff, STAFF.username, STAFF.newPassword);
  const nav = staff.getByRole('navigation', { name: 'Navigasi utama' });
  await nav.getByRole('link', { name: 'Pengguna' }).click();
  await expectVisible(staff.getByTestId('users-table'), 'users table for staff');
  assertEqual(await staff.getByRole('button', { name: 'Tambah pengguna' }).count(), 0, 'no add button without users.manage');
  await nav.getByRole('link', { name: 'Dasbor' }).click();
  await staff.waitForURL(/\/students$/);

  await admin.getByTestId('perm-staff-users.view').uncheck();
  await admin.getByRole('button', { name: 'Simpan hak akses Staf' }).click();
  await expectVisible(admin.getByText('Hak akses Staf disimpan dan langsung berlaku.'), 'saved notification');
  await admin.getByRole('button', { name: 'Simpan hak akses Staf' }).waitFor({ state: 'detached' });

  // The staff user still has the old menu; the next navigation meets the new rights.
  await nav.getByRole('link', { name: 'Pengguna' }).click();
  const forbidden = staff.getByTestId('error-403');
  await expectVisible(forbidden, '403 page');
  await expectVisible(forbidden.getByRole('button', { name: 'Kembali' }), 'Back button');
  await expectVisible(forbidden.getByRole('button', { name: 'Dasbor' }), 'Dashboard button');
  await nav.getByRole('link', { name: 'Pengguna' }).waitFor({ state: 'detached' });
  // The page says which page in the school's words, never the permission's code or "403".
  const forbiddenText = await forbidden.innerText();
  assert(forbiddenText.includes('halaman Pengguna'), `403 names the page: ${forbiddenText}`);
  assert(!/users\.view|\b403\b/.test(forbiddenText), `403 shows no codes: ${forbiddenText}`);
  await shot(staff, '10-forbidden');

  await forbidden.getByRole('button', { name: 'Dasbor' }).click();
  await staff.waitForURL(/\/students$/);

  // A direct visit gets the 403 page too, with the server's message when the API says no.
  await staff.goto('/roles');
  await expectVisible(staff.getByTestId('error-403'), '403 page for /roles');
});

test('profile: change my own password', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, STAFF.username, STAFF.newPassword);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Profil' }).click();
  await page.waitForURL(/\/profile$/);
  await page.getByLabel('Kata sandi saat ini').fill('salah');
  await page.getByLabel(/^Kata sandi baru/).fill('lebih-baru1');
  await page.getByLabel('Ulangi kata sandi baru').fill('lebih-baru1');
  await page.getByRole('button', { name: 'Simpan kata sandi' }).click();
  await expectVisible(page.getByText('Kata sandi saat ini salah.'), 'wrong current password at the field');
  await shot(page, '11-profile');
  await page.getByLabel('Kata sandi saat ini').fill(STAFF.newPassword);
  await page.getByRole('button', { name: 'Simpan kata sandi' }).click();
  await expectVisible(page.getByText('Kata sandi Anda telah diganti.'), 'changed notification');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Keluar' }).click();
  await page.waitForURL(/\/sign-in/);
  await signIn(page, STAFF.username, 'lebih-baru1');
});

test('an unknown route shows the 404 page', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/halaman/yang-tidak-ada');
  const nf = page.getByTestId('error-404');
  await expectVisible(nf, '404 page');
  await expectVisible(nf.getByRole('button', { name: 'Kembali' }), 'Back button');
  await shot(page, '12-not-found');
  await nf.getByRole('button', { name: 'Dasbor' }).click();
  await page.waitForURL(/\/dashboard$/);
});

test('a server that cannot be reached gets a clear message and a retry', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
  await page.goto('/users');
  await expectVisible(page.getByTestId('error-unreachable'), 'unreachable page');
  await shot(page, '13-unreachable');
  await page.unroute('**/api/v1/**');
  await page.getByRole('button', { name: 'Coba lagi' }).click();
  await expectVisible(page.getByTestId('users-table'), 'users after retry');
});

test('phone width (360 px): burger menu, navigation, no sideways scrolling', async (ctx) => {
  const page = await newPage(ctx, PHONE);
  await page.goto('/sign-in');
  await shot(page, '14-phone-sign-in');
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const burger = page.getByTestId('burger');
  await expectVisible(burger, 'burger');
  const nav = page.getByTestId('navbar');
  const navOnScreen = () =>
    page.evaluate(() => {
      const r = document.querySelector('[data-testid="navbar"]').getBoundingClientRect();
      return r.width > 0 && r.right > 1 && r.left < window.innerWidth;
    });
  assert(!(await navOnScreen()), 'navigation hidden until the burger opens it');
  await burger.click();
  await expectVisible(nav.getByRole('link', { name: 'Pengguna' }), 'nav link in the opened menu');
  await shot(page, '15-phone-nav');
  await nav.getByRole('link', { name: 'Pengguna' }).click();
  await page.waitForURL(/\/users$/);
  await expectVisible(page.getByTestId('users-table'), 'users table');
  await page.waitForFunction(() => document.querySelector('[data-testid="navbar"]').getBoundingClientRect().right <= 1);
  await noSidewaysScroll(page, 'users at 360 px');
  await shot(page, '16-phone-users');
});
