// End-to-end case for the violation recap report (issue 14): a homeroom teacher opens /laporan,
// sees their own class's report for this month (another class's violation is not there), and
// prints the PDF through the platform seam (a download in the browser), which pdftotext reads;
// the page on a desktop and on a 360 px phone. Rows go in with psql:
// E2E_ONLY=reports npm run e2e
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const WALI = { username: `wali.lap${suffix}`, name: 'Wali Laporan', password: 'wali-laporan-e2e-1', role: 'wali_kelas', email: '', phone: '' };

/** Today in Jakarta (UTC+7, no daylight saving), YYYY-MM-DD. */
function jakartaToday() {
  return new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
}

let school = null;

/** The homeroom teacher's class with two students and three violations this month; another class with one. */
async function setUp(ctx) {
  if (school) return school;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const res = await apiCall(admin, 'POST', '/api/v1/users', WALI);
  assertEqual(res.status, 201, `create ${WALI.username}: ${JSON.stringify(res.body)}`);
  await admin.context().close();
  const sql = databaseOf(WALI.username, res.body.id);
  const first = (s) => s.split('\n')[0];
  const className = `XI LAPORAN ${suffix}`;
  const otherName = `XII LAIN ${suffix}`;
  const classId = Number(first(sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${className}', 11, ${res.body.id}) RETURNING id`)));
  const otherId = Number(first(sql(`INSERT INTO classes (name, grade) VALUES ('${otherName}', 12) RETURNING id`)));
  const base = 800000 + Math.floor(Math.random() * 90000);
  const student = (name, cls, i) =>
    Number(first(sql(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base + i}, '00${base + i}', '${base + i}', '${name}', 'L', ${cls}) RETURNING id`)));
  const ani = `Ani Laporan ${suffix}`;
  const budi = `Budi Laporan ${suffix}`;
  const other = `Oka Lain ${suffix}`;
  const ids = [student(ani, classId, 0), student(budi, classId, 1), student(other, otherId, 2)];
  const today = jakartaToday();
  const day = `${today.slice(0, 7)}-01`;
  // Alpha and late come from attendance (source 'attendance'): a homeroom teacher's report opens on them.
  const add = (studentId, cls, name, slug, points, desc) =>
    sql(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, description, source)
         SELECT ${studentId}, ${cls}, '${name}', id, '${day} 08:00+07', '${day}', ${points}, '${desc}', 'attendance' FROM violation_types WHERE slug = '${slug}'`);
  add(ids[0], classId, className, 'terlambat', 5, 'Datang pukul 07.40');
  add(ids[0], classId, className, 'alpha', 10, '');
  add(ids[1], classId, className, 'alpha', 10, 'Tanpa keterangan');
  add(ids[2], otherId, otherName, 'alpha', 10, '');
  school = { classId, className, otherName, ani, budi, other };
  return school;
}

test('reports: a homeroom teacher reads their class’s recap of this month and prints the PDF', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, WALI.username, WALI.password);
  await page.getByTestId('navbar').getByRole('link', { name: 'Laporan', exact: true }).click();
  await page.waitForURL(/\/laporan/);
  await expectVisible(page.getByTestId('report-heading').getByText(`Kelas ${s.className}`, { exact: false }), 'their class is the scope');
  // A homeroom teacher's report opens on attendance (their follow-up).
  assertEqual(await page.getByTestId('source-control').getAttribute('data-source'), 'attendance', 'the homeroom teacher’s default source');
  await expectVisible(page.getByTestId('report-heading').getByText('Absensi', { exact: false }), 'the source in the heading');
  // No scope picker for a homeroom teacher: the class is fixed.
  assertEqual(await page.getByTestId('report-scope').count(), 0, 'no scope picker');
  await expectVisible(page.getByTestId('total-violations').getByText('3', { exact: true }), 'three violations');
  await expectVisible(page.getByTestId('total-students').getByText('2', { exact: true }), 'two students');
  await expectVisible(page.getByTestId('total-points').getByText('25', { exact: true }), '25 points');
  await expectVisible(page.getByTestId('report-students').getByText(s.ani), 'Ani in the per-student table');
  await expectVisible(page.getByTestId('report-details').getByText('Datang pukul 07.40'), "the violation's own description");
  const body = await page.locator('main').innerText();
  assert(!body.includes(s.other) && !body.includes(s.otherName), 'another class is not in the report');
  await shot(page, 'reports-01-desktop');

  // Cetak PDF: a download in the browser; the PDF names the class and numbers its pages.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-pdf').click()]);
  assert(/^rekap-pelanggaran-.*\.pdf$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  const file = path.join(os.tmpdir(), `tatib-e2e-laporan-${process.pid}.pdf`);
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  assert(text.includes(s.className), `the PDF names the class:\n${text.slice(0, 800)}`);
  assert(text.includes('Halaman 1 dari'), 'page numbers');
  assert(text.includes('REKAP PELANGGARAN SISWA') && text.includes(s.ani), 'title and a student');
  assert(!text.includes(s.other), 'no other class in the PDF');
  await page.context().close();

  // A phone: the same report, nothing wider than the screen.
  const phone = await newPage(ctx, PHONE);
  await signIn(phone, WALI.username, WALI.password);
  await phone.goto('/laporan');
  await expectVisible(phone.getByTestId('report-heading'), 'report on a phone');
  await expectVisible(phone.getByTestId('report-pdf'), 'print button on a phone');
  await noSidewaysScroll(phone, 'report on a phone');
  await shot(phone, 'reports-02-phone');
  await phone.getByTestId('report-details').scrollIntoViewIfNeeded();
  await shot(phone, 'reports-03-phone-details');
  await phone.context().close();
});
