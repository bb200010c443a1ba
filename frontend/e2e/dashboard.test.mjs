// End-to-end cases for the dashboards (issue 14): a principal (kepala_sekolah), a counselor (bk)
// and a homeroom teacher each sign in and see their own dashboard (the whole school with the
// classes chart; the caseload; their class with today's attendance first), move the violation
// calendar a month back and forth (each month its own request), open a day and its violations;
// desktop and 360 px screenshots. Behaviour and attendance apart (issue 22): a counselor lands on
// behaviour figures and switching to Absensi changes the figures and the list; a homeroom
// teacher lands on attendance and the choice is remembered. Rows go in with psql:
// E2E_ONLY=dashboard npm run e2e
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const KS = { username: `ks.dasbor${suffix}`, name: 'Kepala Sekolah Dasbor', password: 'ks-dasbor-e2e-1', role: 'kepala_sekolah', email: '', phone: '' };
const BK = { username: `bk.dasbor${suffix}`, name: 'Guru BK Dasbor', password: 'bk-dasbor-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.dasbor${suffix}`, name: 'Wali Dasbor', password: 'wali-dasbor-e2e-1', role: 'wali_kelas', email: '', phone: '' };

/** Today in Jakarta (UTC+7, no daylight saving), YYYY-MM-DD. */
function jakartaToday() {
  return new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
}

/** The 10th of the month before date's month. */
function tenthOfPreviousMonth(date) {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return `${d.toISOString().slice(0, 7)}-10`;
}

let school = null;

/**
 * Three users; the homeroom teacher's class of three students (two violations today, one on
 * the 10th of last month, one student's attendance today) and another class with one
 * violation today.
 */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const ids = {};
  for (const u of [KS, BK, WALI]) {
    const res = await apiCall(admin, 'POST', '/api/v1/users', u);
    assertEqual(res.status, 201, `create ${u.username}: ${JSON.stringify(res.body)}`);
    ids[u.role] = res.body.id;
  }
  await admin.context().close();
  const sql = databaseOf(BK.username, ids.bk);
  const one = (q) => Number(sql(q).split('\n')[0]);
  const classId = one(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X DASBOR ${suffix}', 10, ${ids.wali_kelas}) RETURNING id`);
  const otherClass = one(`INSERT INTO classes (name, grade) VALUES ('XI DASBOR ${suffix}', 11) RETURNING id`);
  const base = 800000 + Math.floor(Math.random() * 90000);
  const student = (name, i, cls) =>
    one(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base + i}, '00${base + i}', '${base + i}', '${name} Dasbor ${suffix}', 'P', ${cls}) RETURNING id`);
  const ani = student('Ani', 0, classId);
  const budi = student('Budi', 1, classId);
  student('Cici', 2, classId);
  const eko = student('Eko', 3, otherClass);
  const type = one(`SELECT id FROM violation_types WHERE active ORDER BY is_system, id LIMIT 1`);
  const today = jakartaToday();
  const earlier = tenthOfPreviousMonth(today);
  const violation = (st, cls, day, hour) =>
    sql(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, recorded_by, recorded_by_name)
         SELECT ${st}, ${cls}, c.name, ${type}, ('${day}'::date + time '${hour}') AT TIME ZONE 'Asia/Jakarta', '${day}', 5, ${ids.bk}, 'Guru BK Dasbor'
         FROM classes c WHERE c.id = ${cls}`);
  violation(ani, classId, today, '07:10');
  violation(budi, classId, today, '08:20');
  violation(eko, otherClass, today, '09:00');
  violation(ani, classId, earlier, '10:00');
  // Budi's automatic alpha today, as a journal push leaves it (source attendance).
  const alpha = one(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, source, auto_kind, auto_hours)
       SELECT ${budi}, ${classId}, c.name, t.id, ('${today}'::date + time '07:00') AT TIME ZONE 'Asia/Jakarta', '${today}', 15, 'attendance', 'alpha', 10
       FROM classes c, violation_types t WHERE c.id = ${classId} AND t.slug = 'alpha' RETURNING id`);
  const aniToday = one(`SELECT id FROM violations WHERE student_id = ${ani} AND occurred_on = '${today}'`);
  // Ani's attendance today: Budi and Cici are not filled yet.
  sql(`INSERT INTO attendance_days (student_id, date, h) VALUES (${ani}, '${today}', 10)`);
  school = { classId, today, earlier, alpha, aniToday };
  return school;
}

/** Chooses a source on the page's Sumber control and waits until the page shows it. */
async function pickSource(page, label, source, shownBy = 'source-control') {
  await page.getByTestId('source-control').getByText(label, { exact: true }).click();
  await page.waitForFunction(
    ([id, s]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-source') === s,
    [shownBy, source],
    { timeout: 10_000 },
  );
}

/** The dashboard's source, once its figures are there. */
async function shownSource(page, scope) {
  return page.getByTestId(`dashboard-${scope}`).getAttribute('data-source');
}

/** Opens the dashboard and waits for its figures. */
async function openDashboard(page, scope) {
  await page.goto('/dashboard');
  await expectVisible(page.getByTestId(`dashboard-${scope}`), `${scope} dashboard`);
}

/** Moves the calendar back a month and forward again, each month its own request; opens a day. */
async function useCalendar(page, s, expectToday, source = 'behaviour') {
  const cal = page.getByTestId('violation-calendar');
  await cal.scrollIntoViewIfNeeded();
  const thisMonth = s.today.slice(0, 7);
  assertEqual(await cal.getAttribute('data-month'), thisMonth, 'calendar starts on this month');
  const asked = [];
  page.on('request', (r) => {
    if (r.url().includes('/dashboard/violation-calendar')) asked.push(new URL(r.url()).searchParams.get('month'));
  });
  await page.getByTestId('vcal-prev').click();
  const prevMonth = s.earlier.slice(0, 7);
  await page.waitForFunction((m) => document.querySelector('[data-testid="violation-calendar"]')?.getAttribute('data-month') === m, prevMonth);
  await page.waitForFunction((d) => Number(document.querySelector(`[data-testid="vcal-day-${d}"]`)?.getAttribute('data-count')) >= 1, s.earlier);
  await page.getByTestId('vcal-next').click();
  await page.waitForFunction((d) => Number(document.querySelector(`[data-testid="vcal-day-${d}"]`)?.getAttribute('data-count')) >= 1, s.today);
  assert(asked.includes(prevMonth), `the previous month was fetched on its own (asked ${asked.join(', ')})`);
  const count = Number(await page.getByTestId(`vcal-day-${s.today}`).getAttribute('data-count'));
  if (expectToday !== undefined) assertEqual(count, expectToday, "today's count on the calendar");
  await page.getByTestId(`vcal-day-${s.today}`).click();
  await expectVisible(page.getByTestId('vcal-violation'), "today's violations listed");
  assertEqual(await page.getByTestId('vcal-violation').count(), Math.min(count, 20), "the day's list");
  const href = await page.getByTestId('vcal-day-link').getAttribute('href');
  assertEqual(href, `/violations?from=${s.today}&source=${source}&to=${s.today}`, "the day's list link");
}

test('dashboard: a principal sees the whole school, moves the calendar and opens a day (desktop and phone)', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx);
  await signIn(page, KS.username, KS.password);
  await openDashboard(page, 'school');
  await expectVisible(page.getByTestId('dash-counts'), 'the counts');
  assert(Number(await page.getByTestId('dash-today-count').innerText()) >= 3, "today's count covers both classes");
  assertEqual(await shownSource(page, 'school'), 'behaviour', "a principal's figures are behaviour's");
  assertEqual(await page.getByTestId('dash-today').getAttribute('href'), `/violations?from=${s.today}&source=behaviour&to=${s.today}`, "today's card links to today's list");
  await expectVisible(page.getByTestId('dash-classes'), 'classes by points (whole school)');
  await expectVisible(page.getByTestId('dash-trend'), 'the 12-week trend');
  await expectVisible(page.getByTestId('dash-letters'), 'letters by status');
  assertEqual(await page.getByTestId('dash-caseload').count(), 0, 'no caseload for the principal');
  await useCalendar(page, s);
  await shot(page, 'dashboard-principal-desktop');
  // The card leads to its list with the filters.
  await page.getByTestId('dash-today').click();
  await page.waitForURL((u) => u.pathname === '/violations' && u.searchParams.get('from') === s.today);

  const phone = await newPage(ctx, PHONE);
  await signIn(phone, KS.username, KS.password);
  await openDashboard(phone, 'school');
  await expectVisible(phone.getByTestId('dash-trend'), 'trend on a phone');
  await noSidewaysScroll(phone, 'principal dashboard at 360 px');
  await shot(phone, 'dashboard-principal-phone');
});

test('dashboard: a counselor sees the caseload first and the calendar', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, BK.username, BK.password);
  await openDashboard(page, 'school');
  await expectVisible(page.getByTestId('dash-caseload'), 'the caseload');
  assert(Number(await page.getByTestId('dash-unhandled-count').innerText()) >= 4, 'unhandled violations counted');
  assertEqual(await page.getByTestId('dash-unhandled').getAttribute('href'), '/violations?handling_status=unhandled&period=all&source=behaviour', 'unhandled links to its list');
  // The caseload comes before the counts.
  const order = await page.evaluate(() => {
    const c = document.querySelector('[data-testid="dash-caseload"]');
    const n = document.querySelector('[data-testid="dash-counts"]');
    return c && n ? c.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
  });
  assert(order, 'caseload first');
  await useCalendar(page, s);
  await shot(page, 'dashboard-counselor-desktop');
});

test('dashboard: a counselor lands on behaviour; Absensi changes the figures and the list', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, BK.username, BK.password);
  await openDashboard(page, 'school');
  assertEqual(await shownSource(page, 'school'), 'behaviour', "a counselor's default source");
  assertEqual(await page.getByTestId('dash-caseload-source').innerText(), 'Perilaku; alpa dan terlambat ditindaklanjuti wali kelas.', 'the caseload is behaviour');
  await pickSource(page, 'Absensi', 'attendance', 'dashboard-school');
  assert(Number(await page.getByTestId('dash-today-count').innerText()) >= 1, "today's attendance violations counted");
  assertEqual(await page.getByTestId('dash-today').getAttribute('href'), `/violations?from=${s.today}&source=attendance&to=${s.today}`, 'the figure links to the attendance list');
  await shot(page, 'dashboard-counselor-attendance');
  await page.getByTestId('dash-today').click();
  await page.waitForURL((u) => u.pathname === '/violations' && u.searchParams.get('source') === 'attendance');
  assertEqual(await page.getByTestId('source-control').getAttribute('data-source'), 'attendance', 'the list opens on the figure’s source');
  await page.getByTestId('violation-search').fill(`Dasbor ${suffix}`);
  await expectVisible(page.getByTestId(`violation-row-${s.alpha}`), "Budi's automatic alpha");
  assertEqual(await page.getByTestId(`violation-row-${s.aniToday}`).count(), 0, 'no behaviour violation under Absensi');
  await pickSource(page, 'Perilaku', 'behaviour');
  await expectVisible(page.getByTestId(`violation-row-${s.aniToday}`), "Ani's violation under Perilaku");
  assertEqual(await page.getByTestId(`violation-row-${s.alpha}`).count(), 0, 'no attendance violation under Perilaku');
});

test('dashboard: a homeroom teacher sees their class, what is not filled today first, on a phone', async (ctx) => {
  const s = await setUp(ctx);
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ]) {
    const page = await newPage(ctx, viewport);
    await signIn(page, WALI.username, WALI.password);
    await openDashboard(page, 'class');
    if (size === 'desktop') {
      // A homeroom teacher lands on attendance with their class's follow-up; the choice of
      // Perilaku is remembered for the phone.
      assertEqual(await shownSource(page, 'class'), 'attendance', "a homeroom teacher's default source");
      assertEqual(await page.getByTestId('dash-today-count').innerText(), '1', "today's attendance violations of the class");
      assertEqual(await page.getByTestId('dash-fu-unhandled-count').innerText(), '1', 'the attendance follow-up');
      await pickSource(page, 'Perilaku', 'behaviour', 'dashboard-class');
    } else {
      assertEqual(await shownSource(page, 'class'), 'behaviour', 'the remembered source');
    }
    const notFilled = page.getByTestId('dash-not-filled');
    await expectVisible(notFilled, 'not filled yet');
    assert((await notFilled.innerText()).includes('Belum diisi: 2 siswa'), `not filled text: ${await notFilled.innerText()}`);
    assertEqual(await notFilled.getByRole('link').getAttribute('href'), `/absensi/${s.classId}/${s.today}`, 'fill link to the class form');
    // Attendance is the first section.
    const first = await page.evaluate(() => document.querySelector('[data-testid="dashboard-class"] [data-testid^="dash-"]:not([data-testid="dash-class"])')?.getAttribute('data-testid'));
    assertEqual(first, 'dash-attendance', 'attendance first');
    assertEqual(await page.getByTestId('dash-today-count').innerText(), '2', "today's count is the class's only");
    assertEqual(await page.getByTestId('dash-classes').count(), 0, 'no classes chart for one class');
    await useCalendar(page, s, 2);
    if (size === 'phone') await noSidewaysScroll(page, 'homeroom dashboard at 360 px');
    await shot(page, `dashboard-homeroom-${size}`);
  }
});
