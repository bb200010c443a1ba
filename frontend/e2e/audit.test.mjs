// End-to-end cases for the audit log screen (/audit-log). Registers its cases with harness.mjs's
// test(); run.mjs loads every *.test.mjs. Only these: E2E_ONLY=audit npm run e2e
import { randomBytes } from 'node:crypto';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

async function createUser(page, username, role = 'staff') {
  const res = await apiCall(page, 'POST', '/api/v1/users', {
    username,
    name: `Uji Audit ${username}`,
    role,
    email: '',
    phone: '',
    password: 'audit-Rahasia1',
  });
  assert(res.status === 200 || res.status === 201, `create ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function rolePermissions(page, role) {
  const res = await apiCall(page, 'GET', '/api/v1/roles');
  assertEqual(res.status, 200, 'GET /roles');
  return res.body.data.find((r) => r.role === role).permissions ?? [];
}

async function setRolePermissions(page, role, permissions) {
  const res = await apiCall(page, 'PUT', `/api/v1/roles/${role}/permissions`, { permissions });
  assertEqual(res.status, 200, `PUT /roles/${role}/permissions ${JSON.stringify(res.body)}`);
}

/** "10.04.05": how the screen shows an instant's Jakarta time (Indonesian). */
function jakartaTime(at) {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Jakarta', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    .format(new Date(at))
    .replaceAll(':', '.');
}

const rowsOf = (page) => page.getByTestId('audit-table').locator('[data-testid^="audit-row-"]');

async function pickEntity(page, label) {
  await page.getByRole('textbox', { name: 'Jenis data' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

const suffix = randomBytes(3).toString('hex');

test('audit: a new user and a role change are at the top of the log; filter by entity; details expand', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);

  const username = `audit.${suffix}`;
  const user = await createUser(page, username);
  // The guest role ("other"): gains students.view, loses dashboard.view; put back at the end.
  const before = await rolePermissions(page, 'other');
  assert(!before.includes('students.view'), 'guests start without students.view');
  assert(before.includes('dashboard.view'), 'guests start with dashboard.view');
  await setRolePermissions(page, 'other', [...before.filter((p) => p !== 'dashboard.view'), 'students.view']);
  try {
    const api = await apiCall(page, 'GET', '/api/v1/audit-log?per_page=2');
    assertEqual(api.status, 200, 'GET /audit-log');
    const [roleEntry, userEntry] = api.body.data;
    assertEqual(roleEntry.action, 'role.permissions.update', 'newest entry (API)');
    assertEqual(userEntry.action, 'user.create', 'second entry (API)');

    await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Log audit' }).click();
    await page.waitForURL(/\/audit-log$/);
    await expectVisible(page.getByTestId(`audit-row-${roleEntry.id}`), 'role change row');

    // Newest first: the role change, then the new user.
    const rows = rowsOf(page);
    assertEqual(await rows.nth(0).getAttribute('data-action'), 'role.permissions.update', 'first row');
    assertEqual(await rows.nth(1).getAttribute('data-action'), 'user.create', 'second row');
    const first = await rows.nth(0).innerText();
    // The actor by name (not "admin"), the role by its name (not "other").
    for (const s of ['Mengubah hak akses peran', 'Administrator', 'Peran', 'Tamu', jakartaTime(roleEntry.at)]) {
      assert(first.includes(s), `role row shows ${JSON.stringify(s)}: ${JSON.stringify(first)}`);
    }
    assert(/\d{1,2} [A-Z][a-z]{2} 2\d{3} \d{2}\.\d{2}\.\d{2}/.test(first), `time with seconds: ${first}`);
    const second = await rows.nth(1).innerText();
    for (const s of ['Membuat pengguna', 'Pengguna', String(user.id), jakartaTime(userEntry.at)]) {
      assert(second.includes(s), `user row shows ${JSON.stringify(s)}: ${JSON.stringify(second)}`);
    }

    // The role change expands into granted and revoked permissions.
    await rows.nth(0).getByRole('button', { name: /^Tampilkan detail/ }).click();
    const roleDetails = page.getByTestId(`audit-details-${roleEntry.id}`);
    // Permissions by their labels (the administrator may read the catalogue), not their codes.
    await expectVisible(roleDetails.getByTestId('perm-added').getByText('Lihat siswa, kelas, jurusan'), 'granted students.view');
    await expectVisible(roleDetails.getByTestId('perm-removed').getByText('Lihat dasbor'), 'revoked dashboard.view');
    assert(!(await roleDetails.innerText()).includes('students.view'), 'no permission codes');
    // The new user expands into its values in words; the recorded JSON is behind "technical details".
    await rows.nth(1).getByRole('button', { name: /^Tampilkan detail/ }).click();
    const userDetails = page.getByTestId(`audit-details-${userEntry.id}`);
    const readable = userDetails.getByTestId('audit-details-readable');
    await expectVisible(readable, 'user.create in words');
    const words = await readable.innerText();
    assert(words.includes('Nama pengguna') && words.includes(username) && words.includes('Staf'), `values in words: ${words}`);
    await userDetails.getByTestId('audit-technical-toggle').click();
    const json = userDetails.getByTestId('audit-details-json');
    await expectVisible(json, 'user.create JSON');
    const text = await json.innerText();
    assert(text.includes(`"username": "${username}"`) && text.includes('"role": "staff"'), `pretty JSON: ${text}`);
    await shot(page, 'audit-10-log');
    // And collapses again.
    await rows.nth(0).getByRole('button', { name: /^Sembunyikan detail/ }).click();
    await roleDetails.waitFor({ state: 'detached' });

    // Filter: users only, then roles only.
    await pickEntity(page, 'Pengguna');
    await page.getByTestId(`audit-row-${roleEntry.id}`).waitFor({ state: 'detached' });
    await expectVisible(page.getByTestId(`audit-row-${userEntry.id}`), 'user row under the user filter');
    const userActions = await rowsOf(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    assert(userActions.length > 0 && userActions.every((a) => a.startsWith('user.')), `only user entries: ${userActions}`);
    await shot(page, 'audit-11-filter-user');

    await pickEntity(page, 'Peran');
    await page.getByTestId(`audit-row-${userEntry.id}`).waitFor({ state: 'detached' });
    await expectVisible(page.getByTestId(`audit-row-${roleEntry.id}`), 'role row under the role filter');
    const roleActions = await rowsOf(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    assert(roleActions.every((a) => a === 'role.permissions.update'), `only role entries: ${roleActions}`);

    await pickEntity(page, 'Semua');
    await expectVisible(page.getByTestId(`audit-row-${userEntry.id}`), 'everything again');
  } finally {
    await setRolePermissions(page, 'other', before);
  }
});

test('audit: at 360 px the log is cards with expandable details and no sideways scrolling', async (ctx) => {
  const page = await newPage(ctx, PHONE);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/audit-log');
  const rows = rowsOf(page);
  await expectVisible(rows, 'audit cards');
  assertEqual(await page.locator('table[data-testid="audit-table"]').count(), 0, 'no table at 360 px');
  // The newest entry is the role put back by the previous case (or any other): expand it.
  const first = rows.nth(0);
  await first.getByRole('button', { name: 'Tampilkan detail' }).click();
  await expectVisible(first.locator('[data-testid^="audit-details-"]'), 'details on a phone');
  // A JSON entry, too: the first user.create.
  const created = page.locator('[data-action="user.create"]').first();
  await created.getByRole('button', { name: 'Tampilkan detail' }).click();
  await expectVisible(created.getByTestId('audit-details-readable'), 'values in words on a phone');
  await created.getByTestId('audit-technical-toggle').click();
  await expectVisible(created.getByTestId('audit-details-json'), 'JSON on a phone');
  await page.waitForTimeout(300); // the Collapse animation
  await noSidewaysScroll(page, 'audit log at 360 px');
  await page.evaluate(() => window.scrollTo(0, 0)); // the fixed header belongs at the top of the shot
  await shot(page, 'audit-12-phone');
});

test('audit: a staff user without audit.view has no nav item and gets the 403 page', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const username = `audit.staf.${suffix}`;
  await createUser(admin, username, 'staff');
  assert(!(await rolePermissions(admin, 'staff')).includes('audit.view'), 'staff lacks audit.view by default');

  const staff = await newPage(ctx);
  await signIn(staff, username, 'audit-Rahasia1');
  const nav = staff.getByRole('navigation', { name: 'Navigasi utama' });
  await expectVisible(nav.getByRole('link', { name: 'Dasbor' }), 'staff navigation');
  assertEqual(await nav.getByRole('link', { name: 'Log audit' }).count(), 0, 'no audit nav item for staff');
  assertEqual((await apiCall(staff, 'GET', '/api/v1/audit-log')).status, 403, 'API refuses staff');

  await staff.goto('/audit-log');
  await expectVisible(staff.getByTestId('error-403'), '403 page at /audit-log');
  assertEqual(await staff.getByTestId('audit-table').count(), 0, 'no audit table for staff');
  await shot(staff, 'audit-13-forbidden');
});
