// End-to-end case for the new academic year (issue 17): points and the SP ladder start again
// each academic year; last year's letter stays, read-only; the student page keeps the history
// per year; the year is named where totals are shown. Only this: E2E_ONLY=academic-year npm run e2e
import { randomBytes } from 'node:crypto';
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = randomBytes(3).toString('hex');
const BK = { username: `bk.year.${suffix}`, name: `Guru BK Tahun ${suffix}`, role: 'bk', email: '', phone: '', password: 'bk-year-Rahasia1' };
const WIDE = { width: 1366, height: 768 };

const yearOf = (start) => `${Number(start.slice(0, 4))}/${Number(start.slice(0, 4)) + 1}`;

test('academic-year: last year stays on the student page, its letter is read-only, this year is named where totals are shown', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = await apiCall(admin, 'POST', '/api/v1/users', BK);
  assertEqual(user.status, 201, `create BK user ${JSON.stringify(user.body)}`);
  const cats = await apiCall(admin, 'GET', '/api/v1/violation-categories');
  const type = await apiCall(admin, 'POST', '/api/v1/violation-types', { name: `Terlambat TA ${suffix}`, points: 20, category_id: cats.body.data[0].id, default_sanction: '', description: '' });
  assertEqual(type.status, 201, `create type ${JSON.stringify(type.body)}`);
  const year = await apiCall(admin, 'GET', '/api/v1/academic-year');
  assertEqual(year.status, 200, 'GET /academic-year');
  await admin.context().close();

  // Last year: two violations (on its first day), the SP 1 they led to (delivered) and an SP 2
  // left a draft, both issued last year.
  const sql = databaseOf(BK.username, user.body.id);
  const cur = year.body.start;
  const prev = `${Number(cur.slice(0, 4)) - 1}${cur.slice(4)}`;
  const sourceId = 910000000 + Math.floor(Math.random() * 1000000);
  const classId = sql(`INSERT INTO classes (name, grade) VALUES ('XII TA ${suffix}', 12) RETURNING id`).split('\n')[0];
  const studentId = Number(
    sql(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${sourceId}, '00${sourceId}', 'TA${suffix}', 'Dimas Pratama ${suffix}', 'L', ${classId}) RETURNING id`).split('\n')[0],
  );
  sql(
    `INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points)
     SELECT ${studentId}, ${classId}, 'XII TA ${suffix}', ${type.body.id}, '${prev}T02:00:00Z', '${prev}', 30 FROM generate_series(1, 2)`,
  );
  const oldLetter = Number(
    sql(
      `INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, status, issued_at, delivered_at)
       VALUES (${studentId}, ${classId}, 'XII TA ${suffix}', 1, 'SP 1', 50, '${prev}', 60, 'delivered', '${prev}'::date + 1, '${prev}'::date + 20) RETURNING id`,
    ).split('\n')[0],
  );
  const oldDraft = Number(
    sql(
      `INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, issued_at)
       VALUES (${studentId}, ${classId}, 'XII TA ${suffix}', 2, 'SP 2', 100, '${prev}', 100, '${prev}'::date + 60) RETURNING id`,
    ).split('\n')[0],
  );

  const page = await newPage(ctx, WIDE);
  await signIn(page, BK.username, BK.password);
  // This year: one violation of 20 points; last year's 60 do not count.
  const rec = await apiCall(page, 'POST', '/api/v1/violations', { student_id: studentId, type_ids: [type.body.id], location: 'Gerbang', description: 'Uji tahun ajaran' });
  assertEqual(rec.status, 201, `record ${JSON.stringify(rec.body)}`);
  assertEqual(rec.body.points.total, 20, 'the total starts again this year');
  assertEqual(rec.body.letters.length, 0, 'no letter at 20 points this year');
  const step = await apiCall(page, 'POST', `/api/v1/warning-letters/${oldDraft}/status`, { status: 'printed' });
  assertEqual(step.status, 409, 'last year draft does not move');
  assertEqual(step.body.error.message_code, 'letter.past_year', 'the reason');

  await page.goto(`/students/${studentId}`);
  await expectVisible(page.getByTestId('student-years'), 'history per academic year');
  const now = page.getByTestId(`student-year-${cur}`);
  assertEqual(await now.getAttribute('data-current'), 'true', 'this year marked');
  assertEqual(await page.getByTestId(`student-year-${cur}-total`).innerText(), '20', "this year's total");
  assertEqual(await page.getByTestId(`student-year-${prev}-total`).innerText(), '60', "last year's total");
  await expectVisible(page.getByTestId(`student-year-letter-${oldLetter}`), "last year's letter in its year");
  assertEqual(await page.getByTestId('student-points-year').innerText(), `poin tahun ajaran ${year.body.label}`, 'the points card names the year');
  await checkA11y(page, 'student page with years');
  await shot(page, 'academic-year-10-student-id');

  await page.goto(`/surat-peringatan?student_id=${studentId}`);
  await expectVisible(page.getByTestId(`letter-row-${oldDraft}`), 'last year draft listed');
  assertEqual(await page.getByTestId(`letter-year-${oldDraft}`).innerText(), yearOf(prev), 'the year column');
  await expectVisible(page.getByTestId(`letter-readonly-${oldDraft}`), 'read-only instead of the step');
  assertEqual(await page.getByTestId(`letter-step-${oldDraft}`).count(), 0, 'no step button');
  await expectVisible(page.getByTestId(`letter-pdf-${oldDraft}`), 'still printable');
  await checkA11y(page, 'letters with a past year');
  await page.goto(`/surat-peringatan?student_id=${studentId}&academic_year=${cur.slice(0, 4)}`);
  await expectVisible(page.getByTestId('letters-empty'), 'no letter this year');
  await page.goto(`/surat-peringatan?student_id=${studentId}&academic_year=${prev.slice(0, 4)}`);
  await expectVisible(page.getByTestId(`letter-row-${oldLetter}`), "last year's letters by the year filter");
  assertEqual(await page.locator('[data-testid^="letter-row-"]').count(), 2, "last year's two letters");
  await shot(page, 'academic-year-20-letters-id');

  await page.goto(`/surat-peringatan/${oldDraft}`);
  await expectVisible(page.getByTestId('letter-past-year'), 'the letter says its year has ended');

  await page.goto(`/violations/new?student_id=${studentId}`);
  assertEqual(await page.getByTestId('points-year').innerText(), `Tahun ajaran ${year.body.label}`, "the form's total names the year");

  // Last year's violations stay listed (their handling carries over), named by their year.
  await page.goto(`/violations?period=all&student_id=${studentId}`);
  await expectVisible(page.locator('[data-testid^="violation-past-year-"]').first(), "last year's violation named by its year");
  assertEqual(await page.locator('[data-testid^="violation-past-year-"]').count(), 2, "both of last year's violations");
  assertEqual(await page.locator('[data-testid^="violation-past-year-"]').first().innerText(), `TA ${yearOf(prev)}`, 'the year label');
  assertEqual(await page.locator('[data-testid^="violation-row-"]').count(), 3, "this year's and last year's");

  await page.goto('/');
  assertEqual(await page.getByTestId('dashboard-year').innerText(), `TAHUN AJARAN ${year.body.label}`.toUpperCase(), 'the dashboard names the year');

  const phone = await newPage(ctx, PHONE);
  await signIn(phone, BK.username, BK.password);
  await phone.evaluate(() => localStorage.setItem('tatib.language', 'en'));
  await phone.goto(`/students/${studentId}`);
  await expectVisible(phone.getByTestId('student-years'), 'history on a phone');
  assert((await phone.getByTestId('student-years').innerText()).includes('History by academic year'), 'English title');
  assertEqual(await phone.getByTestId(`student-year-${cur}`).getAttribute('data-current'), 'true', 'this year marked on a phone');
  assertEqual(await phone.getByTestId(`student-year-${prev}-total`).innerText(), '60', "last year's total on a phone");
  await checkA11y(phone, 'student page with years, phone, English');
  await noSidewaysScroll(phone, 'student page with years at 360 px');
  await shot(phone, 'academic-year-11-student-phone-en');
});
