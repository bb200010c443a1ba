// End-to-end cases for the class attendance form (issue 12): a homeroom teacher fills today's
// attendance by touch on a phone (bulk "empty → present", two A and one T), saves, reloads and
// sees what is stored, and an automatic alpha violation appears; a counselor sets cells with the
// keyboard on a desktop (arrows, letters, Backspace, a whole hour from its header) with the
// unsaved-changes guard; a school leader only views. Issue 22: bulk fills empty cells only, a save
// over the journal's and a kiosk's cells asks first and names the letter it withdraws, the
// journal-conflict notice (keep / use the journal's) after a push, and every form fits 360 px
// for today and a past date in both languages. Makes its own class and students:
// E2E_ONLY=attendance npm run e2e
import path from 'node:path';
import { assert, assertEqual, axeViolations, SCREENSHOT_DIR, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, quiet, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.abs${suffix}`, name: 'Guru BK Absensi', password: 'bk-abs-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.abs${suffix}`, name: 'Wali Absensi', password: 'wali-abs-e2e-1', role: 'wali_kelas', email: '', phone: '' };
const HEAD = { username: `kepsek.abs${suffix}`, name: 'Kepala Absensi', password: 'kepsek-abs-e2e-1', role: 'kepala_sekolah', email: '', phone: '' };

/** Today in Jakarta (UTC+7, no daylight saving), YYYY-MM-DD. */
function jakartaDay(offsetDays = 0) {
  return new Date(Date.now() + 7 * 3600_000 + offsetDays * 86400_000).toISOString().slice(0, 10);
}

let school = null;

/** Three users, the homeroom teacher's class with five students. Once per run. */
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
  const className = `X ABS ${suffix}`;
  const classId = Number(sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${className}', 10, ${ids.wali_kelas}) RETURNING id`).split('\n')[0]);
  const base = 800000 + Math.floor(Math.random() * 90000);
  // Names sort in this order on the form (it lists by name).
  const names = ['Adi', 'Bela', 'Candra', 'Dewi', 'Eko'].map((n) => `${n} Absen ${suffix}`);
  const students = names.map((name, i) => ({
    name,
    nis: String(base + i),
    id: Number(
      sql(
        `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base + i}, '00${base + i}', '${base + i}', '${name}', 'L', ${classId}) RETURNING id`,
      ).split('\n')[0],
    ),
  }));
  school = { classId, className, students, sql };
  return school;
}

/** A phone has a touch screen: taps are real touch events. */
async function newTouchPage({ browser, baseURL, track }) {
  const context = await browser.newContext({ baseURL, viewport: PHONE, locale: 'id-ID', timezoneId: 'UTC', hasTouch: true });
  context.setDefaultTimeout(15_000);
  return track(await context.newPage());
}

async function pageAs(ctx, user, viewport = DESKTOP) {
  const page = viewport === PHONE ? await newTouchPage(ctx) : await newPage(ctx, viewport);
  await signIn(page, user.username, user.password);
  return page;
}

/** The grid cell of a student's lesson hour. */
function cell(page, student, hour) {
  return page.getByTestId(`student-row-${student.id}`).locator('[role="gridcell"]').nth(hour - 1);
}

async function expectStatus(page, student, hour, status, what) {
  const c = cell(page, student, hour);
  await c.waitFor();
  await page.waitForFunction(
    ([sel, h, s]) => document.querySelector(sel)?.querySelectorAll('[role="gridcell"]')[h - 1]?.getAttribute('data-status') === s,
    [`[data-testid="student-row-${student.id}"]`, hour, status],
    { timeout: 10_000 },
  ).catch(async () => {
    throw new Error(`${what}: expected ${status}, got ${await c.getAttribute('data-status')}`);
  });
}

async function count(page, testId) {
  return Number(await page.getByTestId(testId).getAttribute('data-count'));
}

async function screen(page, name) {
  await shot(page, name);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-screen.png`) });
}

/**
 * The page never scrolls sideways (the grid scrolls inside its own box) and the header's user
 * menu stays on screen.
 */
async function fits(page, where) {
  const m = await page.evaluate(() => {
    const d = document.documentElement;
    const menu = document.querySelector('[data-testid="user-menu"]')?.getBoundingClientRect();
    return { scroll: d.scrollWidth, client: d.clientWidth, menuRight: menu ? menu.right : 0 };
  });
  assert(m.scroll <= m.client, `${where}: the page is ${m.scroll}px wide in ${m.client}px`);
  assert(m.menuRight > 0 && m.menuRight <= m.client, `${where}: the user menu ends at ${m.menuRight}px of ${m.client}px`);
}

let journalToken = null;

/** A journal token, made once per run by the administrator. */
async function tokenOf(ctx) {
  if (journalToken) return journalToken;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const res = await apiCall(admin, 'POST', '/api/v1/settings/journal-token');
  assertEqual(res.status, 200, `journal token: ${JSON.stringify(res.body)}`);
  await admin.context().close();
  journalToken = res.body.token;
  return journalToken;
}

/** Pushes entries as the E-Jurnal does: [student, hour, status word] on one date. */
async function push(ctx, date, cells) {
  const attendances = cells.map(([st, h, status]) => ({ source_student_id: Number(st.nis), date, lesson_hour: h, status, notes: null }));
  const res = await fetch(`${ctx.baseURL}/api/v1/attendance/sync`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: await tokenOf(ctx), attendances }),
  });
  const body = await res.json();
  assertEqual(res.status, 200, `push: ${JSON.stringify(body)}`);
  return body.results;
}

const hoursOf = (n) => Array.from({ length: n }, (_, i) => i + 1);

test('attendance: a homeroom teacher fills today on a phone by touch, saves, reloads; an alpha violation follows', async (ctx) => {
  const s = await setUp(ctx);
  const [adi, bela, candra] = s.students;
  const today = jakartaDay();
  const page = await pageAs(ctx, WALI, PHONE);

  // The nav item, then the own class on today's Jakarta date (the browser runs on UTC).
  await expectVisible(page.getByTestId('burger'), 'burger');
  await page.getByTestId('burger').click();
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid="navbar"]').getBoundingClientRect();
    return r.left >= 0 && r.width > 0;
  });
  await page.getByTestId('navbar').getByRole('link', { name: 'Absensi', exact: true }).click();
  await page.waitForURL(new RegExp(`/absensi/${s.classId}/${today}$`));
  await expectVisible(page.getByTestId('own-class').getByText(`Kelas Anda: ${s.className}`), 'own class named');
  await expectVisible(page.getByTestId('attendance-grid'), 'the grid');
  const hours = await page.getByTestId(`student-row-${adi.id}`).locator('[role="gridcell"]').count();
  assert(hours >= 1, `lesson hours shown: ${hours}`);
  await expectStatus(page, adi, 1, 'belum', 'nothing stored yet');

  // Touch targets: at least 40 × 40 px; the page itself never scrolls sideways.
  const box = await cell(page, adi, 1).boundingBox();
  assert(box.width >= 40 && box.height >= 40, `cell is a 40 px touch target: ${box.width}×${box.height}`);
  await noSidewaysScroll(page, 'attendance form on a phone');

  // Bulk: every empty cell present; then two A and one T by tapping cells.
  await page.getByTestId('bulk-empty-present').click();
  assertEqual(await count(page, 'dirty-count'), s.students.length * hours, 'every cell changed');
  assertEqual(await count(page, 'summary-H'), s.students.length, 'all students present');
  for (const [st, h, status] of [
    [bela, 1, 'A'],
    [bela, 2, 'A'],
    [candra, 1, 'T'],
  ]) {
    await cell(page, st, h).tap();
    await expectVisible(page.getByTestId('status-picker'), 'the status picker');
    if (status === 'T') await screen(page, 'attendance-01-phone-picker');
    await page.getByTestId('status-picker').getByTestId(`pick-${status}`).tap();
    await page.getByTestId('status-picker').waitFor({ state: 'hidden' });
    await expectStatus(page, st, h, status, `${st.name} hour ${h}`);
  }
  // Unique students: Bela's two A hours count once.
  assertEqual(await count(page, 'summary-A'), 1, 'one student with A');
  assertEqual(await count(page, 'summary-T'), 1, 'one student with T');
  assertEqual(await cell(page, bela, 1).getAttribute('data-dirty'), 'true', 'changed cell is marked');
  const label = await cell(page, bela, 1).getAttribute('aria-label');
  assert(label.includes(bela.name) && label.includes('jam 1') && label.includes('Alpha'), `cell label names student, hour and status: ${label}`);
  await screen(page, 'attendance-01-phone-filled');

  // The save button sits at the bottom of the screen while the grid is on it.
  const bar = await page.getByTestId('save-bar').boundingBox();
  assert(bar.y + bar.height <= PHONE.height + 1, `save bar on screen: ${JSON.stringify(bar)}`);
  await page.getByTestId('save').tap();
  const note = page.locator('.attendance-save-result');
  await expectVisible(note, 'save result notification');
  const text = await note.innerText();
  assert(new RegExp(`${s.students.length * hours} jam disimpan`).test(text), `saved count in the notification: ${text}`);
  assert(/pelanggaran otomatis/.test(text), `automatic violations in the notification: ${text}`);
  assertEqual(await count(page, 'dirty-count'), 0, 'nothing left to save');
  await screen(page, 'attendance-02-phone-saved');

  // Reload: the stored cells, unmarked, with who set them.
  await page.reload();
  await expectStatus(page, bela, 1, 'A', 'stored A after reload');
  await expectStatus(page, bela, 2, 'A', 'stored second A');
  await expectStatus(page, candra, 1, 'T', 'stored T');
  await expectStatus(page, adi, hours, 'H', 'stored H');
  assertEqual(await cell(page, bela, 1).getAttribute('data-dirty'), null, 'no unsaved mark after reload');
  await cell(page, bela, 1).tap();
  await expectVisible(page.getByTestId('cell-info').getByText(/Terakhir diisi oleh Wali Absensi, .* WIB/), 'who set it last');
  await page.keyboard.press('Escape');

  // The automatic alpha violation, once, dated today, recorded by the teacher.
  const list = await apiCall(page, 'GET', `/api/v1/violations?student_id=${bela.id}`);
  assertEqual(list.status, 200, `violations of the student: ${JSON.stringify(list.body)}`);
  const alpha = list.body.data.filter((v) => v.type_slug === 'alpha');
  assertEqual(alpha.length, 1, `one automatic alpha violation: ${JSON.stringify(list.body.data)}`);
  assertEqual(alpha[0].occurred_on, today, 'dated with the attendance date');
  assert(alpha[0].points >= 1, `alpha has points: ${alpha[0].points}`);
  const late = (await apiCall(page, 'GET', `/api/v1/violations?student_id=${candra.id}`)).body.data.filter((v) => v.type_slug === 'terlambat');
  assertEqual(late.length, 1, 'one automatic late violation');
  const none = (await apiCall(page, 'GET', `/api/v1/violations?student_id=${adi.id}`)).body.data;
  assertEqual(none.length, 0, 'no violation for a present student');

  // The violations page shows it too.
  await page.goto(`/violations?q=${bela.nis}`);
  await expectVisible(page.getByText(/Alpha/).first(), 'alpha on the violations page');
}, { timeout: 150_000 });

test('attendance: a counselor sets cells with the keyboard on a desktop; the guard keeps unsaved changes', async (ctx) => {
  const s = await setUp(ctx);
  const [adi, bela, candra, dewi, eko] = s.students;
  const yesterday = jakartaDay(-1);
  const page = await pageAs(ctx, BK, DESKTOP);
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Absensi', exact: true }).click();
  await page.waitForURL(/\/absensi$/);
  await expectVisible(page.getByTestId('pick-class-first'), 'asked for a class first');
  await page.getByTestId('class-picker').click();
  await page.getByTestId('class-picker').fill(s.className);
  await page.getByRole('option', { name: s.className }).click();
  await page.waitForURL(new RegExp(`/absensi/${s.classId}/${jakartaDay()}$`));
  await page.getByTestId('prev-day').click();
  await page.waitForURL(new RegExp(`/absensi/${s.classId}/${yesterday}$`));
  await expectVisible(page.getByTestId('attendance-grid'), 'the grid for yesterday');
  const hours = await page.getByTestId(`student-row-${adi.id}`).locator('[role="gridcell"]').count();

  // One tab stop: the grid's roving focus starts at the first student's first hour (set once
  // the grid has its rows: wait for it on a busy machine).
  await page.getByTestId('attendance-grid').locator('[tabindex="0"]').first().waitFor({ timeout: 10_000 });
  assertEqual(await page.getByTestId('attendance-grid').locator('[tabindex="0"]').count(), 1, 'one tab stop');
  await page.getByTestId('attendance-grid').locator('[tabindex="0"]').focus();
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
  assert((await focused()).startsWith(`${adi.name}, jam 1`), `focus on the first cell: ${await focused()}`);
  await page.keyboard.press('a'); // Adi hour 1: A
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('A'); // Adi hour 2: A
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('t'); // Bela hour 2: T
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('s'); // Candra hour 2: S ...
  await page.keyboard.press('Backspace'); // ... undone
  assert((await focused()).startsWith(`${candra.name}, jam 2: Belum diisi`), `Backspace leaves belum: ${await focused()}`);
  // Up to the header of hour 3, Enter opens its picker, "i" sets the whole hour.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  assert((await focused()).startsWith('Jam 3'), `focus on the hour 3 header: ${await focused()}`);
  await page.keyboard.press('Enter');
  await expectVisible(page.getByTestId('status-picker'), 'the hour picker');
  await page.keyboard.press('i');
  await page.getByTestId('status-picker').waitFor({ state: 'hidden' });
  for (const st of [adi, bela, candra, dewi, eko]) await expectStatus(page, st, 3, 'I', `hour 3 of ${st.name}`);
  await expectStatus(page, adi, 1, 'A', 'Adi hour 1');
  await expectStatus(page, adi, 2, 'A', 'Adi hour 2');
  await expectStatus(page, bela, 2, 'T', 'Bela hour 2');
  await expectStatus(page, candra, 2, 'belum', 'Candra hour 2');
  assertEqual(await count(page, 'dirty-count'), 3 + s.students.length, 'changed cells counted');

  // The whole 10-hour grid fits a 1280 px screen without sideways scrolling.
  const overflow = await page.getByTestId('attendance-scroller').evaluate((el) => el.scrollWidth - el.clientWidth);
  assert(overflow <= 0, `grid scrolls sideways by ${overflow}px at 1280 (${hours} hours)`);
  await noSidewaysScroll(page, 'attendance form on a desktop');
  await shot(page, 'attendance-03-desktop-keyboard');
  const problems = await axeViolations(page);
  assertEqual(problems.length, 0, `the form passes axe: ${problems.join('\n')}`);

  // Moving to another day with unsaved changes asks first; staying keeps them.
  await page.getByTestId('next-day').click();
  await expectVisible(page.getByRole('dialog').getByTestId('leave-stay'), 'leave dialog');
  await page.getByTestId('leave-stay').click();
  assert(page.url().endsWith(`/absensi/${s.classId}/${yesterday}`), `still on yesterday: ${page.url()}`);
  assertEqual(await count(page, 'dirty-count'), 3 + s.students.length, 'changes kept');

  await page.getByTestId('save').click();
  await expectVisible(page.locator('.attendance-save-result'), 'save result');
  const form = await apiCall(page, 'GET', `/api/v1/classes/${s.classId}/attendance/${yesterday}`);
  assertEqual(form.status, 200, 'form read back');
  const adiCells = form.body.students.find((x) => x.id === adi.id).cells.map((c) => `${c.lesson_hour}${c.status}`).sort();
  assertEqual(adiCells.join(','), '1A,2A,3I', "Adi's stored hours");
  assertEqual(form.body.students.find((x) => x.id === candra.id).cells.map((c) => `${c.lesson_hour}${c.status}`).join(','), '3I', 'Candra: only hour 3');
  const alpha = (await apiCall(page, 'GET', `/api/v1/violations?student_id=${adi.id}`)).body.data.filter((v) => v.type_slug === 'alpha' && v.occurred_on === yesterday);
  assertEqual(alpha.length, 1, 'one alpha violation for Adi yesterday');

  // Saved: moving on no longer asks.
  await page.getByTestId('next-day').click();
  await page.waitForURL(new RegExp(`/absensi/${s.classId}/${jakartaDay()}$`));
  assertEqual(await page.getByTestId('leave-stay').count(), 0, 'no dialog once saved');
}, { timeout: 150_000 });

test('attendance: a school leader sees the form read-only with who set each cell', async (ctx) => {
  const s = await setUp(ctx);
  // One of today's hours as the journal would have left it (status unchanged, so the day's
  // counts stay true): the cell carries the journal mark and says so.
  const eko = s.students[4];
  s.sql(`UPDATE attendance SET set_by = 'journal', from_journal = true, updated_by = NULL WHERE student_id = ${eko.id} AND date = '${jakartaDay()}' AND lesson_hour = 1`);
  const page = await pageAs(ctx, HEAD, DESKTOP);
  await page.goto(`/absensi/${s.classId}/${jakartaDay()}`);
  await expectVisible(page.getByTestId('attendance-grid'), 'the grid');
  await expectVisible(page.getByTestId('view-only'), 'view-only notice');
  assertEqual(await page.getByTestId('save-bar').count(), 0, 'no save bar');
  assertEqual(await page.getByTestId('bulk-bar').count(), 0, 'no bulk controls');
  const first = s.students[0];
  const c = cell(page, first, 1);
  const before = await c.getAttribute('data-status');
  await c.focus();
  await page.keyboard.press('a');
  assertEqual(await c.getAttribute('data-status'), before, 'letters change nothing');
  await c.click();
  await expectVisible(page.getByTestId('cell-info'), 'cell details');
  assertEqual(await page.getByTestId('pick-A').count(), 0, 'no status buttons');
  await expectVisible(page.getByTestId('cell-info').getByText(/Terakhir diisi oleh Wali Absensi/), 'who set it');
  await page.keyboard.press('Escape');
  const journal = cell(page, eko, 1);
  assertEqual(await journal.getAttribute('data-journal'), 'true', 'journal cell marked');
  assert((await journal.getAttribute('aria-label')).includes('Sinkron E-Jurnal'), 'journal named in the cell label');
  await journal.click();
  await expectVisible(page.getByTestId('cell-info').getByText(/^Sinkron E-Jurnal, .* WIB$/), 'journal in the details');
  await shot(page, 'attendance-04-view-only');
});

test('attendance: screens at a laptop and a phone in Indonesian and a phone in English pass axe and fit 360 px for today and a past date', async (ctx) => {
  const s = await setUp(ctx);
  const problems = [];
  // English at the phone width only, where its longer labels wrap first (as a11y.test.mjs).
  for (const [lang, size, viewport] of [
    ['id', 'laptop', DESKTOP],
    ['id', 'phone', PHONE],
    ['en', 'phone', PHONE],
  ]) {
    const page = await pageAs(ctx, WALI, viewport);
    if (lang !== 'id') {
      await page.evaluate((l) => localStorage.setItem('tatib.language', l), lang);
    }
    await page.goto(`/absensi/${s.classId}/${jakartaDay()}`);
    await expectVisible(page.getByTestId('attendance-grid'), `grid ${lang} ${size}`);
    await quiet(page);
    await fits(page, `attendance ${lang} ${size}`);
    for (const l of await axeViolations(page)) problems.push(`[${lang} ${size}] ${l}`);
    await screen(page, `attendance-10-${lang}-${size}`);
    if (viewport === PHONE) {
      // A past date adds "Today" to the toolbar: it wraps instead of widening the page.
      await page.getByTestId('prev-day').click();
      await expectVisible(page.getByTestId('to-today'), `"today" on a past date ${lang}`);
      await quiet(page);
      await fits(page, `attendance past date ${lang} ${size}`);
      await screen(page, `attendance-11-${lang}-past-${size}`);
      // The recap screens, each period, on a past date.
      for (const period of ['daily', 'weekly', 'monthly']) {
        await page.goto(`/absensi/rekap?period=${period}&date=${jakartaDay(-1)}`);
        await expectVisible(page.getByTestId('recap-period'), `recap ${period} ${lang}`);
        await quiet(page);
        await fits(page, `recap ${period} ${lang} ${size}`);
        if (period === 'weekly') await shot(page, `attendance-12-${lang}-recap-weekly-phone`);
      }
    }
    await page.context().close();
  }
  assertEqual(problems.length, 0, `axe (WCAG 2 AA):\n${problems.join('\n')}`);
}, { timeout: 180_000 });

test('attendance: a refused save names the student and hour, marks the cell and keeps the draft', async (ctx) => {
  const s = await setUp(ctx);
  const dewi = s.students[3];
  const day = jakartaDay(-2);
  const page = await pageAs(ctx, BK, DESKTOP);
  await page.goto(`/absensi/${s.classId}/${day}`);
  await expectVisible(page.getByTestId('attendance-grid'), 'the grid');
  await cell(page, dewi, 1).click();
  await page.getByTestId('status-picker').getByTestId('pick-A').click();
  await expectStatus(page, dewi, 1, 'A', 'picked by mouse');
  // The student leaves the class between loading and saving.
  s.sql(`UPDATE students SET active = false WHERE id = ${dewi.id}`);
  try {
    await page.getByTestId('save').click();
    const err = page.getByTestId('save-error');
    await expectVisible(err, 'save error');
    const text = await err.innerText();
    assert(text.includes(dewi.name) && text.includes('Jam 1'), `the error names the student and hour: ${text}`);
    assertEqual(await cell(page, dewi, 1).getAttribute('data-error'), 'true', 'the refused cell is marked');
    assertEqual(await count(page, 'dirty-count'), 1, 'the draft is kept');
    await shot(page, 'attendance-05-save-refused');
  } finally {
    s.sql(`UPDATE students SET active = true WHERE id = ${dewi.id}`);
  }
  await page.getByTestId('save').click();
  await expectVisible(page.locator('.attendance-save-result'), 'saved once the student is back');
  assertEqual(await page.getByTestId('save-error').count(), 0, 'the error is gone');
  assertEqual(await count(page, 'dirty-count'), 0, 'nothing left to save');
});

test('attendance: bulk fills empty cells only; overwriting the journal and Face-ID asks first and names the letter withdrawn', async (ctx) => {
  const s = await setUp(ctx);
  const [adi, bela, candra, , eko] = s.students;
  const day = jakartaDay(-3);
  // Eko holds 40 points; the journal's alpha for the whole day adds 15 and issues SP 1 (50).
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const cats = await apiCall(admin, 'GET', '/api/v1/violation-categories');
  const type = await apiCall(admin, 'POST', '/api/v1/violation-types', { name: `Berat Absen ${suffix}`, points: 40, category_id: cats.body.data[0].id, default_sanction: '', description: '' });
  assertEqual(type.status, 201, `type: ${JSON.stringify(type.body)}`);
  const rec = await apiCall(admin, 'POST', '/api/v1/violations', { student_id: eko.id, type_ids: [type.body.id], location: 'Kelas', description: 'Uji surat' });
  assertEqual(rec.status, 201, `violation: ${JSON.stringify(rec.body)}`);
  const n = (await apiCall(admin, 'GET', `/api/v1/classes/${s.classId}/attendance/${day}`)).body.lesson_hours;
  await admin.context().close();
  const pushed = await push(ctx, day, [
    ...[1, 2, 3].map((h) => [adi, h, 'izin']),
    ...hoursOf(n).map((h) => [eko, h, 'alpha']),
    [bela, 1, 'terlambat'],
  ]);
  assertEqual(pushed.letters_issued, 1, `the push issues SP 1: ${JSON.stringify(pushed)}`);
  // Bela's late hour as a Face-ID kiosk leaves it (status unchanged, so the day's counts stay true).
  s.sql(`UPDATE attendance SET set_by = 'kiosk', from_journal = false, updated_by = NULL WHERE student_id = ${bela.id} AND date = '${day}' AND lesson_hour = 1`);

  const page = await pageAs(ctx, WALI, DESKTOP);
  await page.goto(`/absensi/${s.classId}/${day}`);
  await expectVisible(page.getByTestId('attendance-grid'), 'the grid');
  // Who set each cell: in its label (and tooltip).
  assertEqual(await cell(page, adi, 1).getAttribute('data-source'), 'journal', 'journal cell');
  assert((await cell(page, adi, 1).getAttribute('aria-label')).includes('Sinkron E-Jurnal'), 'journal named in the label');
  assert((await cell(page, bela, 1).getAttribute('aria-label')).includes('Face-ID'), 'Face-ID named in the label');
  assert((await cell(page, bela, 1).getAttribute('title')).includes('Face-ID'), 'Face-ID named in the tooltip');

  // "Empty → present" and "everyone H" fill the empty cells only.
  await page.getByTestId('bulk-empty-present').click();
  const empty = s.students.length * n - 3 - n - 1;
  assertEqual(await count(page, 'dirty-count'), empty, 'only the empty cells filled');
  await page.getByTestId('bulk-class').click();
  await page.getByTestId('bulk-class-H').click();
  assertEqual(await count(page, 'dirty-count'), empty, 'everyone H changes no filled cell');
  await expectStatus(page, adi, 1, 'I', "the journal's I stays");
  await expectStatus(page, bela, 1, 'T', "Face-ID's T stays");
  await expectStatus(page, eko, n, 'A', "the journal's A stays");
  await expectStatus(page, candra, 1, 'H', 'an empty cell filled');

  // The explicit overwrite: a dialog that says how many cells it sets.
  await page.getByTestId('bulk-class').click();
  await page.getByTestId('bulk-class-overwrite').click();
  const dialog = page.getByTestId('overwrite-dialog');
  await expectVisible(dialog.getByTestId('bulk-count'), 'overwrite dialog');
  assertEqual(Number(await dialog.getByTestId('bulk-count').getAttribute('data-count')), s.students.length * n, 'every cell of the class');
  await dialog.getByTestId('pick-H').click();
  await expectStatus(page, eko, 1, 'H', "Eko's hour 1 overwritten");
  assertEqual(await count(page, 'dirty-count'), s.students.length * n, 'every cell changed');

  // Saving asks first: the journal's and the kiosk's cells, the violations and SP 1 by name.
  await page.getByTestId('save').click();
  const confirm = page.getByRole('dialog');
  await expectVisible(confirm.getByTestId('confirm-journal'), 'the confirmation');
  assertEqual(await count(confirm, 'confirm-journal'), 3 + n, 'cells from the journal');
  assertEqual(await count(confirm, 'confirm-kiosk'), 1, 'cells from Face-ID');
  assertEqual(await count(confirm, 'confirm-violations-removed'), 2, "Eko's alpha and Bela's late removed");
  const letter = await confirm.getByTestId('confirm-letter').innerText();
  assert(letter.includes('SP 1') && letter.includes(eko.name) && letter.includes('ditarik'), `the letter named: ${letter}`);
  await shot(page, 'attendance-06-confirm-overwrite');
  const problems = await axeViolations(page);
  assertEqual(problems.length, 0, `the confirmation passes axe: ${problems.join('\n')}`);
  await confirm.getByTestId('confirm-save').click();
  const note = page.locator('.attendance-save-result');
  await expectVisible(note, 'saved');
  const text = await note.innerText();
  assert(text.includes(`SP 1 ${eko.name} ditarik`), `the toast names the letter: ${text}`);
  assertEqual(await count(page, 'dirty-count'), 0, 'nothing left to save');
  await expectStatus(page, eko, 1, 'H', 'stored H');
  assertEqual(await cell(page, eko, 1).getAttribute('data-source'), 'user', 'now a person set it');
}, { timeout: 150_000 });

test('attendance: a journal push that meets a teacher\'s entries shows the notice on a phone; keep and use the journal\'s', async (ctx) => {
  const s = await setUp(ctx);
  const [, , candra, dewi] = s.students;
  const day = jakartaDay(-4);
  const page = await pageAs(ctx, WALI, PHONE);
  // The teacher enters a sick note; the journal re-syncs the day with A.
  const saved = await apiCall(page, 'PUT', `/api/v1/classes/${s.classId}/attendance/${day}`, {
    entries: [...[1, 2, 3].map((h) => ({ student_id: candra.id, lesson_hour: h, status: 'S' })), ...[1, 2].map((h) => ({ student_id: dewi.id, lesson_hour: h, status: 'I' }))],
  });
  assertEqual(saved.status, 200, `save: ${JSON.stringify(saved.body)}`);
  const pushed = await push(ctx, day, [...hoursOf(5).map((h) => [candra, h, 'alpha']), [dewi, 1, 'alpha'], [dewi, 2, 'alpha']]);
  assertEqual(pushed.kept_by_person, 5, `kept for the person: ${JSON.stringify(pushed)}`);

  await page.goto(`/absensi/${s.classId}/${day}`);
  const notice = page.getByTestId('journal-conflicts');
  await expectVisible(notice, 'the notice');
  const line = await page.getByTestId(`conflict-${candra.id}`).innerText();
  assert(line.includes('Jurnal mengirim A untuk jam 1–3; Anda mengisi S'), `grouped per student: ${line}`);
  await expectStatus(page, candra, 1, 'S', "the teacher's S stands");
  await expectStatus(page, candra, 4, 'A', "the journal's A fills an empty hour");
  await fits(page, 'form with the notice at 360 px');
  await shot(page, 'attendance-07-phone-conflicts');
  const problems = await axeViolations(page);
  assertEqual(problems.length, 0, `the notice passes axe: ${problems.join('\n')}`);

  await page.getByTestId(`conflict-keep-${candra.id}`).tap();
  await page.getByTestId(`conflict-${candra.id}`).waitFor({ state: 'detached' });
  await expectStatus(page, candra, 1, 'S', 'kept');
  await page.getByTestId(`conflict-use-${dewi.id}`).tap();
  await notice.waitFor({ state: 'detached' });
  await expectStatus(page, dewi, 1, 'A', "the journal's status used");
  assertEqual(await cell(page, dewi, 1).getAttribute('data-source'), 'user', 'stored as the teacher\'s own entry');
  await expectVisible(page.locator('.attendance-save-result'), 'the result');
  await page.reload();
  await expectVisible(page.getByTestId('attendance-grid'), 'the grid after reload');
  assertEqual(await page.getByTestId('journal-conflicts').count(), 0, 'the notice stays gone');

  // Settings → Integrations: the push kept five entries, and says who set them.
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  await admin.goto('/settings/integrations');
  await expectVisible(admin.getByTestId('journal-pushes'), 'push log');
  assert((await admin.getByTestId('journal-push-result').first().innerText()).includes('5 dipertahankan'), 'kept counted');
  await admin.getByTestId('journal-push-kept-toggle').first().click();
  const kept = await admin.getByTestId('journal-push-kept').innerText();
  assert(kept.includes(candra.name) && kept.includes('Wali Absensi'), `kept entries named: ${kept}`);
}, { timeout: 150_000 });
