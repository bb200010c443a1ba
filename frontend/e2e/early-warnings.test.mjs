// End-to-end cases for the early warnings (issue 14): a counselor opens "Peringatan Dini", sees
// each kind's students (an ongoing absence streak, near SP 1, the same violation three times, a
// follow-up overdue), filters by kind and follows a row's next step to the violation; a homeroom
// teacher on a phone sees their class only, as cards. The school's data goes in with psql:
// E2E_ONLY=early-warnings npm run e2e
import { assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { DESKTOP, PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.dini${suffix}`, name: 'Guru BK Dini', password: 'bk-dini-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.dini${suffix}`, name: 'Wali Dini', password: 'wali-dini-e2e-1', role: 'wali_kelas', email: '', phone: '' };

/** Jakarta's date k days ago (UTC+7, no daylight saving), YYYY-MM-DD. */
function daysAgo(k) {
  return new Date(Date.now() + 7 * 3600_000 - k * 86400_000).toISOString().slice(0, 10);
}

let school = null;

/**
 * The homeroom teacher's class: Ani absent (an A hour) today and the two days before, Budi 5 points short of the first
 * SP level, Cici late three times this month with a follow-up that was due yesterday.
 * Another class: Dedi, absent the same three days, whom the homeroom teacher must not see.
 */
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
  const one = (q) => Number(sql(q).split('\n')[0]);
  const classId = one(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X DINI ${suffix}', 10, ${ids.wali_kelas}) RETURNING id`);
  const otherId = one(`INSERT INTO classes (name, grade) VALUES ('XI DINI ${suffix}', 11) RETURNING id`);
  const base = 800000 + Math.floor(Math.random() * 90000);
  const student = (n, i, cls) => {
    const name = `${n} Dini ${suffix}`;
    return { id: one(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base + i}, '00${base + i}', '${base + i}', '${name}', 'P', ${cls}) RETURNING id`), name };
  };
  const s = { ani: student('Ani', 0, classId), budi: student('Budi', 1, classId), cici: student('Cici', 2, classId), dedi: student('Dedi', 3, otherId) };
  for (const k of [2, 1, 0]) {
    sql(`INSERT INTO attendance_days (student_id, date, h, a) VALUES (${s.ani.id}, '${daysAgo(k)}', 9, 1), (${s.dedi.id}, '${daysAgo(k)}', 8, 2),
         (${s.budi.id}, '${daysAgo(k)}', 10, 0) ON CONFLICT DO NOTHING`);
  }
  // Our own category and types; the thresholds and a handling type if the school has none.
  const cat = one(`INSERT INTO violation_categories (name, colour) VALUES ('Dini ${suffix}', 'orange') RETURNING id`);
  const type = (name, points) =>
    one(`INSERT INTO violation_types (name, slug, points, category_id) VALUES ('${name}', '${name.toLowerCase().replaceAll(' ', '-')}', ${points}, ${cat}) RETURNING id`);
  const heavy = type(`Berkelahi ${suffix}`, 40);
  const late = type(`Terlambat ${suffix}`, 1);
  sql(`INSERT INTO sp_thresholds (level, name, min_points) SELECT 1, 'SP 1', 50 WHERE NOT EXISTS (SELECT 1 FROM sp_thresholds)`);
  sql(`INSERT INTO handling_types (name) SELECT 'Pembinaan' WHERE NOT EXISTS (SELECT 1 FROM handling_types)`);
  const [sp1Points, sp1Name] = sql(`SELECT min_points || '|' || name FROM sp_thresholds ORDER BY level LIMIT 1`).split('|');
  const violation = (st, typeId, points, k) =>
    one(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points)
         VALUES (${st.id}, ${classId}, 'X DINI ${suffix}', ${typeId}, '${daysAgo(k)}T03:00:00Z', '${daysAgo(k)}', ${points}) RETURNING id`);
  violation(s.budi, heavy, Number(sp1Points) - 5, 0);
  let lastLate = 0;
  for (const k of [20, 9, 3]) lastLate = violation(s.cici, late, 1, k);
  sql(`INSERT INTO handlings (violation_id, handling_type_id, handled_on, follow_up_on)
       VALUES (${lastLate}, (SELECT min(id) FROM handling_types), '${daysAgo(3)}', '${daysAgo(1)}')`);
  school = { classId, otherId, ...s, lastLate, sp1Name };
  return school;
}

/** Chooses a source on the Sumber control and waits for the page's list of it. */
async function pickSource(page, label, source) {
  await page.getByTestId('source-control').getByText(label, { exact: true }).click();
  await page.waitForFunction((s) => document.querySelector('[data-testid="ew-list"]')?.getAttribute('data-source') === s, source, { timeout: 10_000 });
}

/** The row of a student under a kind. */
function rowOf(page, kind, name) {
  return page.locator(`[data-testid="ew-row"][data-kind="${kind}"]`).filter({ hasText: name });
}

test('early-warnings: a counselor sees each kind, filters by kind and opens a row\'s next step', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, DESKTOP);
  await signIn(page, BK.username, BK.password);
  await page.getByRole('link', { name: 'Peringatan Dini' }).first().click();
  await page.waitForURL((u) => u.pathname === '/peringatan-dini');
  await expectVisible(page.getByTestId('ew-table'), 'the table');
  // A counselor lands on behaviour: no attendance rule there.
  assertEqual(await page.getByTestId('source-control').getAttribute('data-source'), 'behaviour', "a counselor's default source");
  await expectVisible(rowOf(page, 'near_level', s.budi.name).getByText(`5 poin lagi menuju ${s.sp1Name}`), "Budi's points to SP 1");
  assertEqual(await page.getByTestId('ew-tab-absent_streak').count(), 0, 'no streak tab under Perilaku');
  // Absensi: the streaks.
  await pickSource(page, 'Absensi', 'attendance');
  await expectVisible(rowOf(page, 'absent_streak', s.ani.name), "Ani's streak");
  await expectVisible(rowOf(page, 'absent_streak', s.ani.name).getByText('Alpa 3 hari sekolah berturut-turut'), 'the streak in words');
  await expectVisible(rowOf(page, 'absent_streak', s.dedi.name), "Dedi's streak (the whole school)");
  assertEqual(await page.getByTestId('ew-tab-repeat_type').count(), 0, 'no repeated-type tab under Absensi');
  await shot(page, 'early-warnings-00-counselor-attendance');
  await pickSource(page, 'Perilaku', 'behaviour');
  await expectVisible(rowOf(page, 'repeat_type', s.cici.name).getByText(`Terlambat ${suffix}: 3 kali dalam 30 hari`), "Cici's repeats");
  await expectVisible(rowOf(page, 'follow_up_due', s.cici.name).getByText('lewat 1 hari', { exact: false }), "Cici's follow-up, overdue");
  await shot(page, 'early-warnings-01-counselor');

  // One kind: the tab narrows the list; the counts stay.
  await page.getByTestId('ew-tab-near_level').click();
  await page.waitForURL((u) => u.searchParams.get('kind') === 'near_level');
  await expectVisible(rowOf(page, 'near_level', s.budi.name), 'Budi under near_level');
  // The previous list stays on screen until the new one arrives: wait for it to go.
  await page
    .waitForFunction(() => document.querySelectorAll('[data-testid="ew-row"]:not([data-kind="near_level"])').length === 0, null, { timeout: 10_000 })
    .catch(() => {
      throw new Error('rows of other kinds under near_level');
    });

  // The next step of the overdue follow-up: record a handling on that violation.
  await page.getByTestId('ew-tab-follow_up_due').click();
  const fu = rowOf(page, 'follow_up_due', s.cici.name);
  await expectVisible(fu, 'the follow-up row');
  const action = fu.getByTestId('ew-action');
  assertEqual(await action.getAttribute('data-action'), 'record_handling', 'the follow-up action');
  await action.click();
  await page.waitForURL((u) => u.pathname === `/violations/${s.lastLate}`);
  // The student link leads to the student's page.
  await page.goBack();
  await rowOf(page, 'follow_up_due', s.cici.name).getByTestId('ew-student').click();
  await page.waitForURL((u) => u.pathname === `/students/${s.cici.id}`);
});

test('early-warnings: a homeroom teacher on a phone sees their class only, as cards', async (ctx) => {
  const s = await setUp(ctx);
  const page = await newPage(ctx, PHONE);
  await signIn(page, WALI.username, WALI.password);
  await page.goto('/peringatan-dini');
  await expectVisible(page.getByTestId('ew-table'), 'the cards');
  // A homeroom teacher lands on attendance: Ani's streak and Budi near SP 1.
  assertEqual(await page.getByTestId('source-control').getAttribute('data-source'), 'attendance', "a homeroom teacher's default source");
  await page.waitForFunction(() => document.querySelector('[data-testid="ew-count-total"]')?.textContent === '2', null, { timeout: 10_000 }).catch(async () => {
    throw new Error(`attendance total: ${await page.getByTestId('ew-count-total').textContent()}, want 2`);
  });
  await pickSource(page, 'Semua', 'all');
  // Ani's streak, Budi near SP 1, Cici's repeats and follow-up: three students.
  for (const [kind, n] of [['absent_streak', '1'], ['near_level', '1'], ['repeat_type', '1'], ['follow_up_due', '1'], ['total', '3']]) {
    await page.waitForFunction(([k, v]) => document.querySelector(`[data-testid="ew-count-${k}"]`)?.textContent === v, [kind, n], { timeout: 10_000 }).catch(async () => {
      throw new Error(`count ${kind}: ${await page.getByTestId(`ew-count-${kind}`).textContent()}, want ${n}`);
    });
  }
  assertEqual(await page.locator('[data-testid="ew-row"]').count(), 4, 'four rows');
  assertEqual(await page.locator('[data-testid="ew-row"]').filter({ hasText: s.dedi.name }).count(), 0, 'no student of another class');
  await noSidewaysScroll(page, 'early warnings on a phone');
  await shot(page, 'early-warnings-02-homeroom-phone');

  // Another class by parameter: the server refuses (404), never another class's list.
  const res = await apiCall(page, 'GET', `/api/v1/early-warnings?class_id=${s.otherId}`);
  assertEqual(res.status, 404, `another class: ${JSON.stringify(res.body)}`);
});
