// End-to-end cases for the attendance recaps and calendars (issue 12): a counselor opens a
// class's weekly recap (unique students per status, each day's hours), downloads the weekly
// Excel (a zip with the class's sheet), moves the class calendar to the previous month and back
// (each month its own request), and sees the school-wide recap; a homeroom teacher sees their
// own class on a phone and a student's calendar on the student page. Attendance rows go in with
// psql (attendance and attendance_days kept consistent, as the core keeps them):
// E2E_ONLY=attendance-recap npm run e2e
import zlib from 'node:zlib';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.rekap${suffix}`, name: 'Guru BK Rekap', password: 'bk-rekap-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.rekap${suffix}`, name: 'Wali Rekap', password: 'wali-rekap-e2e-1', role: 'wali_kelas', email: '', phone: '' };

/** Today in Jakarta (UTC+7, no daylight saving), YYYY-MM-DD. */
function jakartaToday() {
  return new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
}

/** The Monday of date's week. */
function mondayOf(date) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The 10th of the month before date's month. */
function tenthOfPreviousMonth(date) {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return `${d.toISOString().slice(0, 7)}-10`;
}

/** Stores a student's day: hour i+1 gets hours[i], then that day's counts from attendance. */
function mark(sql, studentId, date, hours) {
  const values = [...hours].map((s, i) => `(${studentId}, '${date}', ${i + 1}, '${s}', true)`).join(', ');
  sql(`INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal) VALUES ${values}
       ON CONFLICT (student_id, date, lesson_hour) DO UPDATE SET status = excluded.status`);
  sql(`INSERT INTO attendance_days (student_id, date, h, s, i, a, t)
       SELECT ${studentId}, '${date}', count(*) FILTER (WHERE status = 'H'), count(*) FILTER (WHERE status = 'S'),
         count(*) FILTER (WHERE status = 'I'), count(*) FILTER (WHERE status = 'A'), count(*) FILTER (WHERE status = 'T')
       FROM attendance WHERE student_id = ${studentId} AND date = '${date}'
       ON CONFLICT (student_id, date) DO UPDATE SET h = excluded.h, s = excluded.s, i = excluded.i, a = excluded.a, t = excluded.t`);
}

let school = null;

/** Two users, the homeroom teacher's class with three students and their attendance. */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const ids = {};
  for (const u of [BK, WALI]) {
    const res = await apiCall(admin, 'POST', '/api/v1/users', u);
    assertEqual(res.status, 201, `create ${u.username}: ${JSON.stringify(res.body)}`);
    ids[u.role] = res.body.id;
  }
  await admin.context().close();
  const sql = databaseOf(BK.username, ids.bk);
  const className = `X REKAP ${suffix}`;
  const classId = Number(sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${className}', 10, ${ids.wali_kelas}) RETURNING id`).split('\n')[0]);
  const base = 700000 + Math.floor(Math.random() * 90000);
  const students = ['Ani', 'Budi', 'Cici'].map((n, i) => {
    const name = `${n} Rekap ${suffix}`;
    const id = Number(
      sql(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base + i}, '00${base + i}', '${base + i}', '${name}', 'P', ${classId}) RETURNING id`).split(
        '\n',
      )[0],
    );
    return { id, name };
  });
  const monday = mondayOf(jakartaToday());
  const earlier = tenthOfPreviousMonth(monday);
  // Monday: Ani 2 A hours (one student under A), Budi present, Cici late once: the whole class.
  mark(sql, students[0].id, monday, 'AAHHHHHHHH');
  mark(sql, students[1].id, monday, 'HHHHHHHHHH');
  mark(sql, students[2].id, monday, 'THHHHHHHHH');
  // Last month: Ani only (a partial day).
  mark(sql, students[0].id, earlier, 'AAAAAAAAAA');
  school = { classId, className, students, monday, earlier };
  return school;
}

/** The entries of a zip (stored or deflated), by name. */
function unzip(buf) {
  let end = buf.length - 22;
  while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end--;
  assert(end >= 0, 'zip: end of central directory');
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const out = {};
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(dataAt, dataAt + size);
    out[name] = method === 0 ? data : zlib.inflateRawSync(data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

async function waitAttr(page, testId, attr, value, what) {
  await page
    .waitForFunction(([id, a, v]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute(a) === v, [testId, attr, value], { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`${what}: ${attr} expected ${value}, got ${await page.getByTestId(testId).first().getAttribute(attr)}`);
    });
}

test('attendance-recap: a counselor reads the weekly recap, downloads the Excel and moves the calendar month by month', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, BK.username, BK.password);
  // The nav item sits with the attendance form.
  await expectVisible(page.getByRole('link', { name: 'Rekap Absensi' }), 'nav item');

  const calendarRequests = [];
  page.on('request', (r) => {
    if (r.url().includes('/attendance-calendar')) calendarRequests.push(new URL(r.url()).searchParams.get('month'));
  });
  await page.goto(`/absensi/rekap?class=${s.classId}&period=weekly&date=${s.monday}`);
  await expectVisible(page.getByTestId('recap-table'), 'weekly table');
  await waitAttr(page, 'recap-period', 'data-from', s.monday, 'the week starts on Monday');
  // Student-days by day status (issue 22): Ani's two A hours of ten and Cici's one T hour make
  // present days, so the week holds three H days and no A or T day.
  await waitAttr(page, 'summary-H', 'data-count', '3', 'H days');
  await waitAttr(page, 'summary-A', 'data-count', '0', 'A days');
  await waitAttr(page, 'summary-T', 'data-count', '0', 'T days');
  const ani = page.getByTestId(`recap-row-${s.students[0].id}`);
  await expectVisible(ani.locator(`[data-date="${s.monday}"]`).getByText('A2'), "Ani's Monday: 2 A hours");
  await expectVisible(ani.locator(`[data-date="${s.monday}"]`).getByText('H8'), "Ani's Monday: 8 H hours");
  await shot(page, 'attendance-recap-01-weekly');

  // The weekly Excel: a zip whose workbook holds the class's sheet and a legend.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-weekly').click()]);
  assertEqual(download.suggestedFilename(), `rekap-absensi-mingguan-x-rekap-${suffix}-${s.monday}.xlsx`, 'file name');
  const file = path.join(os.tmpdir(), `tatib-e2e-rekap-${process.pid}.xlsx`);
  await download.saveAs(file);
  const buf = await readFile(file);
  assertEqual(buf.toString('latin1', 0, 2), 'PK', 'a zip');
  const files = unzip(buf);
  const workbook = files['xl/workbook.xml']?.toString('utf8') ?? '';
  assert(workbook.includes(`name="${s.className}"`) && workbook.includes('name="Keterangan"'), `sheets: ${workbook}`);
  const strings = files['xl/sharedStrings.xml']?.toString('utf8') ?? '';
  assert(strings.includes(s.students[0].name) && strings.includes('H8 A2'), "Ani's row in the sheet");

  // The class calendar: this month, the previous one (its own request), and back.
  const cal = page.getByTestId('attendance-calendar-class');
  const month = s.monday.slice(0, 7);
  const prev = s.earlier.slice(0, 7);
  await waitAttr(page, 'attendance-calendar-class', 'data-month', month, 'calendar month');
  await waitAttr(page, `calendar-day-${s.monday}`, 'data-state', 'complete', 'Monday: every student recorded');
  await cal.getByTestId('calendar-prev').click();
  await waitAttr(page, 'attendance-calendar-class', 'data-month', prev, 'previous month');
  await waitAttr(page, `calendar-day-${s.earlier}`, 'data-state', 'partial', 'last month: Ani only');
  // Its counts: keyboard focus shows them; Enter picks the day and shows them below.
  await page.getByTestId(`calendar-day-${s.earlier}`).focus();
  await page.keyboard.press('Enter');
  await expectVisible(cal.getByTestId('calendar-detail').getByText('1 dari 3 siswa tercatat', { exact: false }), 'day details');
  await shot(page, 'attendance-recap-02-calendar-previous');
  await cal.getByTestId('calendar-next').click();
  await waitAttr(page, 'attendance-calendar-class', 'data-month', month, 'back to this month');
  assert(calendarRequests.includes(prev) && calendarRequests.includes(month), `one request per month: ${calendarRequests}`);

  // Daily: students × hours, belum as a dash.
  await page.getByTestId('period-tabs').getByText('Harian').click();
  await expectVisible(page.getByTestId(`recap-row-${s.students[0].id}`), 'daily row');

  // The school: one line per class.
  await page.getByTestId('tab-school').click();
  await expectVisible(page.getByTestId(`school-row-${s.classId}`), "the class's line in the school recap");
  await shot(page, 'attendance-recap-03-school');
  await page.context().close();
});

test('attendance-recap: a homeroom teacher sees their class on a phone and a student calendar', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, PHONE);
  await signIn(page, WALI.username, WALI.password);
  await page.goto(`/absensi/rekap?period=weekly&date=${s.monday}`);
  await expectVisible(page.getByTestId('own-class').getByText(s.className, { exact: false }), 'own class');
  await expectVisible(page.getByTestId('recap-table'), 'weekly table on a phone');
  assertEqual(await page.getByTestId('tab-school').count(), 0, 'no school tab for a homeroom teacher');
  await waitAttr(page, 'summary-H', 'data-count', '3', 'H days');
  await noSidewaysScroll(page, 'recap at 360 px');
  await shot(page, 'attendance-recap-04-phone');

  await page.goto(`/students/${s.students[0].id}`);
  await expectVisible(page.getByTestId('student-attendance'), 'attendance on the student page');
  await waitAttr(page, `calendar-day-${s.monday}`, 'data-state', 'H', "Ani's Monday: 8 H hours of 10, an H day");
  await page.getByTestId('student-attendance').getByTestId('calendar-prev').click();
  await waitAttr(page, `calendar-day-${s.earlier}`, 'data-state', 'A', "Ani's day last month");
  await noSidewaysScroll(page, 'student page at 360 px');
  await page.getByTestId('student-attendance').scrollIntoViewIfNeeded();
  await shot(page, 'attendance-recap-05-student-phone');
  await page.context().close();
});

/** A key for the semester of date with the academic year from 1 July: July–December or January–June. */
function semesterKey(date) {
  const y = Number(date.slice(0, 4));
  return Number(date.slice(5, 7)) >= 7 ? `${y}-1` : `${y - 1}-2`;
}

test('attendance-recap: the semester view on a phone gives e-Rapor its days and the workbook, every period within 360 px', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, PHONE);
  await signIn(page, BK.username, BK.password);
  await page.goto(`/absensi/rekap?class=${s.classId}&period=semester&date=${s.monday}`);
  await expectVisible(page.getByTestId('recap-table'), 'semester table');
  // Ani: Monday's 2 A hours of 10 are a present day; last month's all-A day is an alpa day
  // when it falls in the same semester.
  const alpa = semesterKey(s.earlier) === semesterKey(s.monday) ? '1' : '0';
  const ani = page.getByTestId(`recap-row-${s.students[0].id}`);
  await expectVisible(ani, "Ani's row");
  assertEqual(await ani.getByTestId('erapor-alpa').getAttribute('data-count'), alpa, "Ani's alpa days");
  assertEqual(await ani.getByTestId('erapor-sakit').getAttribute('data-count'), '0', "Ani's sakit days");
  assertEqual(await ani.getByTestId('hours-A').getAttribute('data-count'), alpa === '1' ? '12' : '2', "Ani's A hours");
  await expectVisible(page.getByTestId('erapor-hint'), 'the e-Rapor hint');
  await noSidewaysScroll(page, 'semester at 360 px');
  await shot(page, 'attendance-recap-06-semester-phone');

  // The class's e-Rapor workbook.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-semester').click()]);
  assert(/^ketidakhadiran-x-rekap-[a-z0-9]+-\d{4}-\d{4}-semester-[12]\.xlsx$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  const file = path.join(os.tmpdir(), `tatib-e2e-semester-${process.pid}.xlsx`);
  await download.saveAs(file);
  const strings = unzip(await readFile(file))['xl/sharedStrings.xml']?.toString('utf8') ?? '';
  assert(strings.includes('Tanpa Keterangan') && strings.includes(s.students[0].name), 'the sheet holds the e-Rapor header and Ani');
  await expectVisible(page.getByTestId('export-semester-all'), 'the whole school workbook');

  // Every other period and the school tab fit as well.
  for (const label of ['Harian', 'Mingguan', 'Bulanan']) {
    await page.getByTestId('period-tabs').getByText(label).click();
    await expectVisible(page.getByTestId('recap-table'), `${label} table`);
    await noSidewaysScroll(page, `${label} at 360 px`);
  }
  await page.getByTestId('tab-school').click();
  await expectVisible(page.getByTestId(`school-row-${s.classId}`), "the class's line in the school recap");
  await noSidewaysScroll(page, 'school tab at 360 px');
  await page.context().close();
});
