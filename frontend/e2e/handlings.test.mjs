// End-to-end case for shared handling records (issue 22): a counselor chooses three violations
// on the list and handles them with one record; a homeroom teacher on a phone resolves the
// week's automatic lateness of their class in two taps. Makes its own users, class and
// violations, so it runs alone: E2E_ONLY=handlings npm run e2e
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const BK = { username: `bk.tgn${suffix}`, name: 'Guru BK Tangani', password: 'bk-tgn-e2e-1', role: 'bk', email: '', phone: '' };
const WALI = { username: `wali.tgn${suffix}`, name: 'Wali Tangani', password: 'wali-tgn-e2e-1', role: 'wali_kelas', email: '', phone: '' };

/** Today in Jakarta, YYYY-MM-DD. */
const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

test('handlings: three violations handled with one record from the list; a week of lateness resolved in two taps', async (ctx) => {
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
  const className = `XI TGN ${suffix}`;
  const classId = Number(sql(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('${className}', 11, ${ids.wali_kelas}) RETURNING id`).split('\n')[0]);
  const base = 700000 + Math.floor(Math.random() * 90000);
  const students = [1, 2, 3].map((n) =>
    Number(
      sql(
        `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${base + n}, '00${base + n}', '${base + n}', 'Siswa Tangani ${n} ${suffix}', 'L', ${classId}) RETURNING id`,
      ).split('\n')[0],
    ),
  );
  const day = today();
  const violation = (student, slug, auto) =>
    Number(
      sql(
        `INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, source, auto_kind, auto_hours, recorded_by)
         SELECT ${student}, ${classId}, '${className}', id, '${day}T07:30:00+07:00', '${day}', points, ${auto ? `'attendance', 'late', 1, NULL` : `'manual', NULL, NULL, ${ids.bk}`}
         FROM violation_types WHERE slug = '${slug}' RETURNING id`,
      ).split('\n')[0],
    );
  // Three violations recorded by hand (one per student), three automatic latenesses.
  const manual = students.map((s) => violation(s, 'alpha', false));
  const late = students.map((s) => violation(s, 'terlambat', true));

  // A counselor chooses the three on the list and handles them at once.
  const bk = await newPage(ctx);
  await signIn(bk, BK.username, BK.password);
  await bk.goto(`/violations?class_id=${classId}&source=all`);
  for (const id of manual) await bk.getByTestId(`select-${id}`).check();
  await expectVisible(bk.getByTestId('selection-count').getByText('3 pelanggaran dipilih (3 siswa)'), 'three chosen');
  await bk.getByTestId('selection-handle').click();
  const dialog = bk.getByRole('dialog');
  await expectVisible(dialog.getByTestId('shared-summary'), 'the dialog says what it covers');
  await dialog.getByTestId('handling-type').click();
  await bk.getByRole('option', { name: 'Pembinaan BK' }).first().click();
  await dialog.getByTestId('handling-notes').fill('Dibina bersama di ruang BK.');
  await shot(bk, 'handlings-01-dialog');
  await dialog.getByTestId('handling-save').click();
  await dialog.waitFor({ state: 'hidden' });
  assertEqual(await bk.getByTestId('selection-bar').count(), 0, 'the selection is cleared');
  assertEqual(sql(`SELECT string_agg(DISTINCT handling_status, ',') FROM violations WHERE id IN (${manual.join(',')})`), 'in_progress', 'all three in progress');
  for (const id of manual) {
    await expectVisible(bk.getByTestId(`violation-row-${id}`).getByText('Sedang ditangani'), `row ${id} in progress`);
  }

  // The violation page shows the shared record and the two others it covers, linked.
  await bk.goto(`/violations/${manual[0]}`);
  await bk.getByTestId('shared-toggle').click();
  await expectVisible(bk.getByText('Juga mencakup 2 pelanggaran lain'), 'also covers two');
  // The summary line stands outside the Collapse; its links count once it has opened.
  await expectVisible(bk.getByTestId('shared-covers').getByRole('link').last(), 'the list opened');
  assertEqual(await bk.getByTestId('shared-covers').getByRole('link').count(), 2, 'two linked violations');
  await bk.context().close();

  // The homeroom teacher, on a phone: one tap opens the week's lateness, the second resolves it.
  const wali = await newPage(ctx, PHONE);
  await signIn(wali, WALI.username, WALI.password);
  await wali.goto('/violations');
  await expectVisible(wali.getByTestId(`select-${late[0]}`), 'the list with its checkboxes');
  await noSidewaysScroll(wali, 'the violation list on a phone');
  await wali.getByTestId('bulk-resolve').click();
  const bulk = wali.getByRole('dialog');
  await expectVisible(bulk.getByTestId('bulk-preview').getByText('3 keterlambatan belum selesai · 3 siswa'), 'the preview counts them');
  await noSidewaysScroll(wali, 'the bulk resolve dialog on a phone');
  await shot(wali, 'handlings-02-bulk-phone');
  await bulk.getByTestId('bulk-confirm').click();
  await bulk.waitFor({ state: 'hidden' });
  assertEqual(sql(`SELECT string_agg(DISTINCT handling_status, ',') FROM violations WHERE id IN (${late.join(',')})`), 'resolved', 'the lateness is resolved');
  assertEqual(sql(`SELECT string_agg(DISTINCT handling_status, ',') FROM violations WHERE id IN (${manual.join(',')})`), 'in_progress', 'the rest untouched');
  const audit = sql(`SELECT details->>'count' FROM audit_log WHERE action = 'handling.bulk_resolve' AND entity_id = '${classId}'`);
  assertEqual(audit, '3', 'one audit entry naming the count');
  assert(sql(`SELECT count(*) FROM handling_violations hv JOIN handlings h ON h.id = hv.handling_id WHERE hv.violation_id IN (${late.join(',')})`) === '3', 'one record covers them');
  await wali.context().close();
});
