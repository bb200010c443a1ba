// End-to-end cases for real-time notifications (issue 13): an admin (desktop width) and a
// counselor (a 360 px phone) are signed in, each in their own browser context; a third user
// records a violation through the API, and both badges go up within seconds without a reload,
// while a homeroom teacher of another class sees no change. The counselor opens the bell and
// the notification leads to the violation; the admin marks all read on the notifications page
// and the badge goes to 0. Makes its own users, classes and student:
// E2E_ONLY=notifications npm run e2e
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.notif${suffix}`, name: 'Guru BK Notifikasi', password: 'bk-notif-e2e-1', role: 'bk', email: '', phone: '' };
const RECORDER = { username: `bk.catat${suffix}`, name: 'Guru BK Pencatat', password: 'bk-catat-e2e-1', role: 'bk', email: '', phone: '' };
const WALI_A = { username: `wali.a${suffix}`, name: 'Wali Kelas A', password: 'wali-a-e2e-1', role: 'wali_kelas', email: '', phone: '' };
const WALI_B = { username: `wali.b${suffix}`, name: 'Wali Kelas B', password: 'wali-b-e2e-1', role: 'wali_kelas', email: '', phone: '' };

let school = null;

/** Four users; class A (Wali A's) with a student, class B (Wali B's); a violation type. Once per run. */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const ids = {};
  for (const u of [BK, RECORDER, WALI_A, WALI_B]) {
    const res = await apiCall(admin, 'POST', '/api/v1/users', u);
    assertEqual(res.status, 201, `create ${u.username}: ${JSON.stringify(res.body)}`);
    ids[u.username] = res.body.id;
  }
  const cats = await apiCall(admin, 'GET', '/api/v1/violation-categories');
  assertEqual(cats.status, 200, 'GET /violation-categories');
  const type = await apiCall(admin, 'POST', '/api/v1/violation-types', {
    name: `Terlambat upacara ${suffix}`,
    points: 5,
    category_id: cats.body.data[0].id,
    default_sanction: '',
    description: '',
  });
  assertEqual(type.status, 201, `create type ${JSON.stringify(type.body)}`);
  await admin.context().close();

  const sql = databaseOf(BK.username, ids[BK.username]);
  const classA = Number(sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('XI NOTIF A ${suffix}', 11, ${ids[WALI_A.username]}) RETURNING id`).split('\n')[0]);
  sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('XI NOTIF B ${suffix}', 11, ${ids[WALI_B.username]})`);
  const base = 700000 + Math.floor(Math.random() * 90000);
  const studentName = `Laras Notifikasi ${suffix}`;
  const studentId = Number(
    sql(
      `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base}, '00${base}', '${base}', '${studentName}', 'P', ${classA}) RETURNING id`,
    ).split('\n')[0],
  );
  school = { typeId: type.body.id, studentId, studentName };
  return school;
}

/** The bell's unread count, read from its label ("Notifikasi: 3 belum dibaca" / "Notifikasi"). */
async function badge(page) {
  const label = (await page.getByTestId('bell').getAttribute('aria-label')) ?? '';
  const m = /(\d+)/.exec(label);
  return m ? Number(m[1]) : 0;
}

/** Waits until the badge satisfies cond (at most ms), answering the count. */
async function badgeUntil(page, cond, what, ms = 8000) {
  const until = Date.now() + ms;
  let n = await badge(page);
  while (!cond(n)) {
    if (Date.now() > until) throw new Error(`${what}: badge stays at ${n}`);
    await page.waitForTimeout(100);
    n = await badge(page);
  }
  return n;
}

/** Signs in on a page that records its WebSockets, and waits for the real-time one to open. */
async function signedIn(ctx, user, password, viewport = DESKTOP) {
  const page = await newPage(ctx, viewport);
  const sockets = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes('/api/v1/ws')) sockets.push(ws);
  });
  await signIn(page, user, password);
  const until = Date.now() + 10_000;
  while (!sockets.some((ws) => !ws.isClosed())) {
    if (Date.now() > until) throw new Error(`${user}: no WebSocket to /api/v1/ws`);
    await page.waitForTimeout(100);
  }
  const url = sockets[0].url();
  assert(/^ws:\/\/[^/]+\/api\/v1\/ws\?(after_id=\d+&)?lang=id$/.test(url), `${user}: socket URL ${url}`);
  // The server registers the socket once the upgrade is done; give the first frames a moment.
  await page.waitForTimeout(500);
  return page;
}

test('notifications: two users see the badge go up live; the bell opens the violation; mark all read', async (ctx) => {
  const s = await setUp(ctx);
  const admin = await signedIn(ctx, 'admin', ADMIN_PASSWORD, DESKTOP);
  const bk = await signedIn(ctx, BK.username, BK.password, PHONE);
  const waliB = await signedIn(ctx, WALI_B.username, WALI_B.password, DESKTOP);
  const before = { admin: await badge(admin), bk: await badge(bk), waliB: await badge(waliB) };

  // A third user records a violation through the API (their own session cookie).
  const recorder = await newPage(ctx);
  await signIn(recorder, RECORDER.username, RECORDER.password);
  const t0 = Date.now();
  const rec = await apiCall(recorder, 'POST', '/api/v1/violations', {
    student_id: s.studentId,
    type_ids: [s.typeId],
    location: 'Lapangan',
    description: 'Uji notifikasi',
  });
  assertEqual(rec.status, 201, `record ${JSON.stringify(rec.body)}`);
  const violationId = rec.body.violations?.[0]?.id ?? rec.body.id ?? rec.body.violation?.id;
  assert(violationId, `violation id in ${JSON.stringify(rec.body).slice(0, 300)}`);

  // Both badges go up without a reload, within a few seconds.
  const [adminNow, bkNow] = await Promise.all([
    badgeUntil(admin, (n) => n > before.admin, 'admin'),
    badgeUntil(bk, (n) => n > before.bk, 'counselor'),
  ]);
  const took = Date.now() - t0;
  console.log(`# badges went up in ${took} ms (admin ${before.admin}→${adminNow}, counselor ${before.bk}→${bkNow})`);
  assert(took < 5000, `badges took ${took} ms`);
  await expectVisible(admin.getByTestId('notification-toast'), 'a toast on the admin page');
  await shot(admin, 'notifications-toast-desktop');
  // A click on the toast opens the violation.
  await admin.getByTestId('notification-toast').first().locator('p, div').filter({ hasText: 'Pelanggaran' }).first().click();
  await admin.waitForURL((u) => u.pathname === `/violations/${violationId}`);

  // The homeroom teacher of another class sees nothing.
  await waliB.waitForTimeout(1500);
  assertEqual(await badge(waliB), before.waliB, 'homeroom teacher of another class: badge');
  assertEqual(await waliB.getByTestId('notification-toast').count(), 0, 'homeroom teacher of another class: no toast');

  // The counselor, on a phone: the bell opens the latest; clicking the new one opens the violation.
  await bk.getByTestId('bell').click();
  const popover = bk.getByTestId('bell-popover');
  await expectVisible(popover, 'the bell popover');
  const item = popover.locator('[data-unread="true"]').first();
  await expectVisible(item, 'an unread notification in the popover');
  assert((await item.innerText()).includes(s.studentName) || (await popover.innerText()).length > 0, 'the popover lists it');
  await noSidewaysScroll(bk, 'bell popover at 360 px');
  await shot(bk, 'notifications-bell-phone');
  await checkA11y(bk, 'bell popover, phone');
  await item.click();
  await bk.waitForURL((u) => u.pathname === `/violations/${violationId}`);
  await badgeUntil(bk, (n) => n === bkNow - 1, 'counselor after opening one');

  // The counselor's notifications page on a phone.
  await bk.goto('/notifications');
  await expectVisible(bk.getByTestId('notifications-list'), 'the list on a phone');
  await noSidewaysScroll(bk, 'notifications page at 360 px');
  await shot(bk, 'notifications-page-phone');
  await checkA11y(bk, 'notifications page, phone');

  // The admin's page: the new one is listed unread; mark all read → badge 0.
  await admin.getByTestId('bell').click();
  await admin.getByTestId('bell-see-all').click();
  await admin.waitForURL((u) => u.pathname === '/notifications');
  await expectVisible(admin.getByTestId('notifications-list').locator('[data-unread="true"]'), 'an unread row on the page');
  await shot(admin, 'notifications-page-desktop');
  await checkA11y(admin, 'notifications page with an unread one, desktop');
  await admin.getByTestId('mark-all-read').click();
  await badgeUntil(admin, (n) => n === 0, 'admin after mark all read');
  await admin.waitForFunction(() => document.querySelectorAll('[data-testid="notifications-list"] [data-unread="true"]').length === 0, null, {
    timeout: 8000,
  });
  assertEqual(await admin.getByTestId('bell-badge').locator('.mantine-Indicator-indicator').count(), 0, 'no red badge');
  await shot(admin, 'notifications-read-desktop');
});

test('notifications: reading in one tab clears the badge in the other', async (ctx) => {
  const s = await setUp(ctx);
  const first = await signedIn(ctx, BK.username, BK.password, DESKTOP);
  const second = await first.context().newPage();
  await second.goto('/students');
  await second.waitForLoadState('networkidle');
  const recorder = await newPage(ctx);
  await signIn(recorder, RECORDER.username, RECORDER.password);
  const rec = await apiCall(recorder, 'POST', '/api/v1/violations', { student_id: s.studentId, type_ids: [s.typeId], location: 'Kelas', description: 'Uji dua tab' });
  assertEqual(rec.status, 201, 'record');
  await badgeUntil(second, (n) => n > 0, 'second tab');
  const res = await apiCall(first, 'POST', '/api/v1/notifications/read-all');
  assert(res.status === 200 || res.status === 204, `read-all answered ${res.status}`);
  await badgeUntil(second, (n) => n === 0, 'second tab after read-all in the first');
});

test('notifications: a deactivated user’s open page loses its socket and goes to sign-in', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = { username: `bk.keluar${suffix}`, name: 'Guru BK Keluar', password: 'bk-keluar-e2e-1', role: 'bk', email: '', phone: '' };
  const created = await apiCall(admin, 'POST', '/api/v1/users', user);
  assertEqual(created.status, 201, `create ${JSON.stringify(created.body)}`);
  const page = await signedIn(ctx, user.username, user.password, DESKTOP);
  const off = await apiCall(admin, 'PATCH', `/api/v1/users/${created.body.id}`, { active: false });
  assertEqual(off.status, 200, `deactivate ${JSON.stringify(off.body)}`);
  // No click, no navigation: the failed reconnect asks /auth/me, whose 401 ends the session.
  await page.waitForURL((u) => u.pathname === '/sign-in', { timeout: 15_000 });
});
