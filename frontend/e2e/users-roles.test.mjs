// End-to-end cases for the role access rights matrix and the users ↔ classes link (issue 9
// finding 2, issue 10 points 7 and 10). Registers its cases with harness.mjs's test(); run.mjs
// loads every *.test.mjs. Only these: E2E_ONLY=users-roles npm run e2e
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = randomBytes(3).toString('hex');

async function rolePermissions(page, role) {
  const res = await apiCall(page, 'GET', '/api/v1/roles');
  assertEqual(res.status, 200, 'GET /roles');
  return res.body.data.find((r) => r.role === role).permissions;
}

async function setRolePermissions(page, role, permissions) {
  const res = await apiCall(page, 'PUT', `/api/v1/roles/${role}/permissions`, { permissions });
  assertEqual(res.status, 200, `PUT /roles/${role}/permissions ${JSON.stringify(res.body)}`);
}

/**
 * Makes the user (just created, unique username) homeroom teacher of a class: through the API
 * when the school cases have synced classes in, else by adding a class in this run's database
 * (found as the tatib_e2e_* database that holds the username), since classes only come from a sync.
 */
async function homeroomClassFor(page, username, userId) {
  const classes = await apiCall(page, 'GET', '/api/v1/classes');
  assertEqual(classes.status, 200, 'GET /classes');
  const free = (classes.body.data ?? []).find((c) => !c.homeroom_teacher);
  if (free) {
    const assigned = await apiCall(page, 'PATCH', `/api/v1/classes/${free.id}`, { homeroom_teacher_id: userId });
    assertEqual(assigned.status, 200, `assign ${JSON.stringify(assigned.body)}`);
    return free;
  }
  const admin = process.env.TATIB_TEST_DATABASE_URL;
  const q = (url, sql) => execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { encoding: 'utf8' }).trim();
  const dbs = q(admin, "SELECT datname FROM pg_database WHERE datname LIKE 'tatib_e2e_%'").split('\n').filter(Boolean);
  for (const db of dbs) {
    const url = new URL(admin);
    url.pathname = `/${db}`;
    let found;
    try {
      found = q(url.toString(), `SELECT id FROM users WHERE username = '${username}'`);
    } catch {
      continue; // another run's database, gone or not migrated yet
    }
    if (found !== String(userId)) continue;
    const name = `XII E2E ${suffix}`;
    const id = q(url.toString(), `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${name}', 12, ${userId}) RETURNING id`);
    return { id: Number(id.split('\n')[0]), name };
  }
  throw new Error(`no e2e database holds ${username}`);
}

const rect = (locator) => locator.evaluate((el) => el.getBoundingClientRect().toJSON());

test('users-roles: the matrix keeps its labels in view, a save bar saves, leaving with unsaved changes asks first', async (ctx) => {
  const page = await newPage(ctx, { width: DESKTOP.width, height: 720 });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const before = await rolePermissions(page, 'other');
  await page.goto('/roles');
  const matrix = page.getByTestId('roles-matrix');
  await expectVisible(matrix, 'matrix');

  // Labels and groups, never permission codes; sensitive and school-wide permissions say so.
  const text = await page.locator('main').innerText();
  for (const code of ['users.manage', 'roles.manage', 'audit.view', 'violation_types.manage']) {
    assert(!text.includes(code), `permission code ${code} on screen`);
  }
  await expectVisible(page.getByTestId('sensitive-roles.manage'), 'sensitive mark on roles.manage');
  await expectVisible(page.getByTestId('perm-row-roles.manage').getByText(/Mengubah hak akses peran lain/), 'what roles.manage allows');
  await expectVisible(page.getByTestId('school-wide-audit.view').getByText('Seluruh sekolah: tidak terbatas pada kelas wali kelas.'), 'school-wide note');
  assertEqual(await page.getByTestId('sensitive-students.view').count(), 0, 'students.view is not sensitive');

  // Scroll the matrix down and right: the role header row and the permission column stay.
  const box = page.getByTestId('roles-matrix-scroll');
  await box.evaluate((el) => el.scrollTo(el.scrollWidth, el.scrollHeight));
  await page.waitForTimeout(100);
  const boxRect = await rect(box);
  const header = await rect(page.getByTestId('role-col-ketua_tim'));
  assert(Math.abs(header.top - boxRect.top) < 3, `header row stays at the top: ${header.top} vs ${boxRect.top}`);
  const lastRow = page.getByTestId('perm-row-violation_types.manage');
  const firstCell = await rect(lastRow.locator('th').first());
  assert(Math.abs(firstCell.left - boxRect.left) < 3, `permission column stays at the left: ${firstCell.left} vs ${boxRect.left}`);

  // Tick a low row: the save bar shows the count, on screen.
  assertEqual(await page.getByTestId('roles-save-bar').count(), 0, 'no save bar without changes');
  await page.getByTestId('perm-other-violation_types.view').click();
  const bar = page.getByTestId('roles-save-bar');
  await expectVisible(bar, 'save bar');
  assertEqual(await page.getByTestId('roles-unsaved-count').innerText(), 'Perubahan belum disimpan: 1', 'count');
  const barRect = await rect(bar);
  assert(barRect.bottom <= 720 && barRect.top >= 0, `save bar on screen: ${JSON.stringify(barRect)}`);
  await shot(page, 'roles-20-matrix-dirty');

  // Leaving asks; "Stay" keeps the changes.
  const nav = page.getByRole('navigation', { name: 'Navigasi utama' });
  await nav.getByRole('link', { name: 'Pengguna' }).click();
  const leave = page.getByRole('dialog', { name: 'Tinggalkan tanpa menyimpan?' });
  await expectVisible(leave, 'leave dialog');
  await shot(page, 'roles-21-leave-dialog');
  await leave.getByRole('button', { name: 'Tetap di sini' }).click();
  await leave.waitFor({ state: 'hidden' });
  assert(page.url().endsWith('/roles'), `still on /roles: ${page.url()}`);
  assertEqual(await page.getByTestId('roles-unsaved-count').innerText(), 'Perubahan belum disimpan: 1', 'changes kept');

  try {
    // Save from the bar.
    await bar.getByRole('button', { name: 'Simpan perubahan' }).click();
    await expectVisible(page.getByText('Hak akses Tamu disimpan dan langsung berlaku.'), 'saved notification');
    await bar.waitFor({ state: 'detached' });
    assert((await rolePermissions(page, 'other')).includes('violation_types.view'), 'saved on the server');

    // Discard, then a change left behind: "Leave" goes.
    await page.getByTestId('perm-staff-audit.view').click();
    await page.getByTestId('perm-bk-audit.view').click();
    assertEqual(await page.getByTestId('roles-unsaved-count').innerText(), 'Perubahan belum disimpan: 2', 'two changes');
    await bar.getByRole('button', { name: 'Buang perubahan' }).click();
    await bar.waitFor({ state: 'detached' });
    assert(!(await page.getByTestId('perm-staff-audit.view').isChecked()), 'discarded');
    await page.getByTestId('perm-staff-audit.view').click();
    await nav.getByRole('link', { name: 'Pengguna' }).click();
    await leave.getByRole('button', { name: 'Tinggalkan' }).click();
    await page.waitForURL(/\/users$/);
    assert(!(await rolePermissions(page, 'staff')).includes('audit.view'), 'the unsaved change was not saved');
  } finally {
    await setRolePermissions(page, 'other', before);
  }
});

test('users-roles: a role holder cannot change its own role, and the screen shows why', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const before = await rolePermissions(admin, 'waka');
  const username = `waka.${suffix}`;
  const created = await apiCall(admin, 'POST', '/api/v1/users', { username, name: 'Waka Uji', role: 'waka', email: '', phone: '', password: 'waka-Rahasia1' });
  assertEqual(created.status, 201, 'create waka');
  await setRolePermissions(admin, 'waka', [...before, 'roles.manage']);
  try {
    const waka = await newPage(ctx);
    await signIn(waka, username, 'waka-Rahasia1');
    await waka.goto('/roles');
    await expectVisible(waka.getByTestId('roles-matrix'), 'matrix for waka');
    await waka.getByTestId('perm-waka-settings.manage').click();
    await waka.getByTestId('roles-save-bar').getByRole('button', { name: 'Simpan perubahan' }).click();
    await expectVisible(waka.getByText(/tidak dapat mengubah hak akses peran Anda sendiri/), 'own-role refusal');
    // A sensitive permission for another role: only the administrator.
    await waka.getByTestId('roles-save-bar').getByRole('button', { name: 'Buang perubahan' }).click();
    await waka.getByTestId('perm-staff-users.manage').click();
    await waka.getByTestId('roles-save-bar').getByRole('button', { name: 'Simpan perubahan' }).click();
    await expectVisible(waka.getByText(/Hanya admin yang dapat memberi atau mencabut izin “Kelola pengguna”/), 'sensitive refusal');
    await shot(waka, 'roles-22-delegation-refused');
    await waka.getByTestId('roles-save-bar').getByRole('button', { name: 'Buang perubahan' }).click();
  } finally {
    await setRolePermissions(admin, 'waka', before);
  }
});

test('users-roles: at 360 px the rights are one role at a time with switches, no sideways scrolling', async (ctx) => {
  const page = await newPage(ctx, PHONE);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const before = await rolePermissions(page, 'other');
  await page.goto('/roles');
  await expectVisible(page.getByTestId('roles-phone'), 'phone layout');
  assertEqual(await page.locator('table[data-testid="roles-matrix"]').count(), 0, 'no matrix table on a phone');
  await page.getByRole('textbox', { name: 'Peran' }).click();
  await page.getByRole('option', { name: 'Tamu', exact: true }).click();
  const sw = page.getByTestId('perm-other-students.view');
  assert(!(await sw.isChecked()), 'guests start without students.view');
  await sw.click({ force: true });
  await expectVisible(page.getByTestId('roles-save-bar'), 'save bar on a phone');
  await noSidewaysScroll(page, 'roles at 360 px');
  await shot(page, 'roles-23-phone');
  try {
    await page.getByTestId('roles-save-bar').getByRole('button', { name: 'Simpan perubahan' }).click();
    await expectVisible(page.getByText('Hak akses Tamu disimpan dan langsung berlaku.'), 'saved on a phone');
    assert((await rolePermissions(page, 'other')).includes('students.view'), 'saved on the server');
  } finally {
    await setRolePermissions(page, 'other', before);
  }
});

test('users-roles: the users list shows a homeroom teacher\'s class; deleting them warns and releases the class', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const username = `wali.${suffix}`;
  const name = `Wali Lepas ${suffix}`;
  const created = await apiCall(page, 'POST', '/api/v1/users', { username, name, role: 'wali_kelas', email: '', phone: '', password: 'wali-Rahasia1' });
  assertEqual(created.status, 201, 'create wali');
  const free = await homeroomClassFor(page, username, created.body.id);

  await page.goto('/users');
  await page.getByLabel('Cari').fill(username);
  const row = page.getByTestId(`user-row-${username}`);
  await expectVisible(row.getByText(`Wali kelas ${free.name}`), 'class in the users list');

  // Edit: another role warns and offers the release; without it the server names the class.
  await row.getByRole('button').click();
  await page.getByRole('menuitem', { name: 'Ubah' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Peran' }).click();
  await page.getByRole('option', { name: 'Staf', exact: true }).click();
  await expectVisible(dialog.getByTestId('homeroom-warning'), 'warning in the edit dialog');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await expectVisible(dialog.getByTestId('form-error').getByText(new RegExp(`wali kelas ${free.name}`)), 'server names the class');
  await shot(page, 'users-20-edit-homeroom');
  await dialog.getByRole('button', { name: 'Batal' }).click();

  // Delete: the button waits for "release the class".
  await row.getByRole('button').click();
  await page.getByRole('menuitem', { name: 'Hapus' }).click();
  const del = page.getByRole('dialog');
  await expectVisible(del.getByTestId('homeroom-warning'), 'warning in the delete dialog');
  assert(await del.getByRole('button', { name: 'Hapus' }).isDisabled(), 'delete waits for the release');
  await del.getByTestId('release-class').click();
  await shot(page, 'users-21-delete-homeroom');
  await del.getByRole('button', { name: 'Hapus' }).click();
  await del.waitFor({ state: 'hidden' });
  await row.waitFor({ state: 'detached' });
  const after = await apiCall(page, 'GET', `/api/v1/classes/${free.id}`);
  assertEqual(after.body.homeroom_teacher ?? null, null, 'class released');
});
