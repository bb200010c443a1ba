// End-to-end case for the family portal (issue 26): a guardian signs in at /ortu on a 360 px
// phone with the one-time code read from the school's WhatsApp outbox, sees their child in
// Indonesian and English, acknowledges a letter and excuses today's absence; the homeroom
// teacher approves it on the attendance form and the hours become S set by the excuse; another
// family's child answers 404. E2E_ONLY=portal npm run e2e
import { assert, assertEqual, checkA11y, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

const suffix = Date.now().toString(36).slice(-5);
const WALI = { username: `wali.ortu${suffix}`, name: 'Wali Portal', password: 'wali-ortu-e2e-1', role: 'wali_kelas', email: '', phone: '' };
const PHONE_RAW = '0812-7000-1234';
const PHONE_NORMAL = '6281270001234';

/** A school day in Jakarta, YYYY-MM-DD: today, or Saturday on a Sunday (excuses skip Sundays). */
function schoolDay() {
  const fmt = (d) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(d);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Jakarta', weekday: 'short' }).format(new Date());
  return weekday === 'Sun' ? fmt(new Date(Date.now() - 86_400_000)) : fmt(new Date());
}

test('portal: a guardian signs in by WhatsApp code, reads and acknowledges, excuses; the homeroom teacher approves; S stands', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const created = await apiCall(admin, 'POST', '/api/v1/users', WALI);
  assertEqual(created.status, 201, `create wali: ${JSON.stringify(created.body)}`);
  await admin.context().close();

  // A class led by the homeroom teacher, two families, a letter sent home, a gateway configured
  // (nothing reaches it here: the code is read from the outbox).
  const sql = databaseOf(WALI.username, created.body.id);
  const one = (q) => Number(sql(q).split('\n')[0]);
  const classId = one(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('XI ORTU ${suffix}', 11, ${created.body.id}) RETURNING id`);
  const base = 700000 + Math.floor(Math.random() * 90000);
  const budi = one(`INSERT INTO students (source_id, nisn, full_name, gender, class_id, parent_name, parent_phone)
    VALUES (${base}, '00${base}', 'Budi Ortu ${suffix}', 'L', ${classId}, 'Pak Budi', '${PHONE_RAW}') RETURNING id`);
  const sari = one(`INSERT INTO students (source_id, nisn, full_name, gender, class_id, parent_name, parent_phone)
    VALUES (${base + 1}, '00${base + 1}', 'Sari Ortu ${suffix}', 'P', ${classId}, 'Bu Sari', '0812-7000-9999') RETURNING id`);
  sql(`INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, status, sent_to_parent_at)
    VALUES (${budi}, ${classId}, 'XI ORTU ${suffix}', 1, 'SP 1', 25, date_trunc('year', now())::date, 30, 'printed', now())`);
  sql(`INSERT INTO settings (key, value) VALUES ('messaging', '{"gateway":{"kind":"fonnte","base_url":"http://127.0.0.1:9","token":"x","timeout_seconds":2}}')
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`);

  const g = await newPage(ctx, PHONE);
  await g.goto('/ortu/');
  await g.waitForURL((u) => u.pathname === '/ortu/masuk');
  await checkA11y(g, 'portal sign-in at 360 px');
  await g.getByTestId('portal-phone').fill(PHONE_RAW);
  await g.getByRole('button', { name: 'Kirim kode' }).click();
  await expectVisible(g.getByTestId('portal-code'), 'the code field');
  const body = sql(`SELECT body FROM parent_messages WHERE event = 'portal_code' AND phone = '${PHONE_NORMAL}' ORDER BY id DESC LIMIT 1`);
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  assert(code, `a code in the outbox: ${body}`);
  await g.getByTestId('portal-code').fill(code);
  await g.getByRole('button', { name: 'Masuk' }).click();
  await expectVisible(g.getByTestId('portal-child').filter({ hasText: `Budi Ortu ${suffix}` }), 'the child on the home screen');
  assertEqual(await g.getByTestId('portal-child').count(), 1, 'one child only');
  await noSidewaysScroll(g, 'portal home at 360 px');
  const manifest = await g.evaluate(async () => (await fetch(document.querySelector('link[rel="manifest"]').href)).json());
  assertEqual(manifest.start_url, '/ortu/', 'the manifest');
  // Chromium's own installability check (manifest, icons, service worker). A test browser's
  // context is an incognito one, which Chromium never installs from: that reason alone is fine.
  const cdp = await g.context().newCDPSession(g);
  let installErrors = [];
  for (let i = 0; i < 20; i++) {
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    installErrors = installabilityErrors.filter((e) => e.errorId !== 'in-incognito');
    if (installErrors.length === 0) break;
    await g.waitForTimeout(250);
  }
  assertEqual(JSON.stringify(installErrors), '[]', 'installability errors');

  // Another family's child and letter are not found.
  const other = await apiCall(g, 'GET', `/api/v1/portal/children/${sari}`);
  assertEqual(other.status, 404, "another family's child");

  await g.getByTestId('portal-child').first().click();
  await expectVisible(g.getByText('Poin tahun ajaran ini'), 'the points card in Indonesian');
  await g.getByTestId('language-switch').getByText('EN').click();
  await expectVisible(g.getByText('Points this school year'), 'the points card in English');
  await expectVisible(g.getByTestId('portal-attendance-none'), 'no attendance yet, said in words');
  await noSidewaysScroll(g, 'child page at 360 px (en)');
  await checkA11y(g, 'portal child page at 360 px (en)');
  await g.getByRole('tab', { name: 'Letters' }).click();
  await g.getByTestId('portal-acknowledge').click();
  await expectVisible(g.getByTestId('portal-acknowledged'), 'the acknowledgement');
  await g.getByTestId('language-switch').getByText('ID').click();
  await g.getByRole('tab', { name: 'Izin' }).click();
  const today = schoolDay();
  await g.getByTestId('excuse-from').fill(today);
  await g.getByTestId('excuse-to').fill(today);
  await g.getByTestId('excuse-reason').fill('Demam sejak semalam');
  await g.getByTestId('excuse-submit').click();
  await expectVisible(g.getByTestId('portal-excuse-status').and(g.locator('[data-status="pending"]')), 'the excuse waiting');
  await shot(g, 'portal-excuse-360');
  assertEqual(Number(sql(`SELECT count(*) FROM letter_acknowledgements WHERE guardian_name = 'Pak Budi'`)), 1, 'the acknowledgement stored');

  // The homeroom teacher approves on the attendance form, on a phone.
  const w = await newPage(ctx, PHONE);
  await signIn(w, WALI.username, WALI.password);
  await w.goto(`/absensi/${classId}/${today}`);
  await expectVisible(w.getByTestId('pending-excuse').filter({ hasText: `Budi Ortu ${suffix}` }), 'the pending excuse on the form');
  await w.getByTestId('excuse-approve').first().click();
  await w.getByTestId('pending-excuses').waitFor({ state: 'detached' });
  const cells = sql(`SELECT string_agg(DISTINCT status || ':' || set_by, ',') FROM attendance WHERE student_id = ${budi} AND date = '${today}'`);
  assertEqual(cells, 'S:excuse', 'the excused hours');
  await g.reload();
  await g.getByRole('tab', { name: 'Izin' }).click();
  await expectVisible(g.getByTestId('portal-excuse-status').and(g.locator('[data-status="approved"]')), 'the guardian sees the approval');

  // Notification preferences on the account page: violations into the daily summary; a warning
  // letter offers no "off".
  await g.goto('/ortu/akun');
  await expectVisible(g.getByTestId('portal-preferences').getByText('Pemberitahuan'), 'the preferences card in Indonesian');
  assertEqual(await g.getByTestId('pref-warning_letter').getByText('Mati').count(), 0, 'a warning letter cannot be off');
  await g.getByTestId('pref-violation').getByText('Ringkasan harian').click();
  for (let i = 0; i < 20 && sql(`SELECT count(*) FROM guardian_notification_prefs np JOIN guardians gd ON gd.id = np.guardian_id
    WHERE gd.phone = '${PHONE_NORMAL}' AND np.kind = 'violation' AND np.mode = 'digest'`).trim() !== '1'; i++) await g.waitForTimeout(200);
  assertEqual(sql(`SELECT np.mode FROM guardian_notification_prefs np JOIN guardians gd ON gd.id = np.guardian_id
    WHERE gd.phone = '${PHONE_NORMAL}' AND np.kind = 'violation'`).trim(), 'digest', 'the preference stored');
  await g.getByTestId('language-switch').getByText('EN').click();
  await expectVisible(g.getByTestId('portal-preferences').getByText('Notifications'), 'the preferences card in English');
  await noSidewaysScroll(g, 'portal account at 360 px (en)');
  await checkA11y(g, 'portal account page at 360 px (en)');
});
