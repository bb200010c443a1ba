// End-to-end cases of issue 28 (positive behaviour): a counselor records a team's provincial
// win for three students from the achievements screen and verifies it; under the offset policy
// their totals fall; on the thresholds screen the "what if" panel shows how many students change
// level if SP 1 moves from 50 to 60, and nothing is saved. Both widths (1366 / 360) and both
// languages. Only these: E2E_ONLY=achievements node e2e/run.mjs
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, databaseOf, expectVisible, newPage, noSidewaysScroll, openUntil, signIn } from './helpers.mjs';

const suffix = randomBytes(3).toString('hex');
const BK = { username: `bk.prestasi.${suffix}`, name: `Guru BK Prestasi ${suffix}`, role: 'bk', email: '', phone: '', password: 'bk-prestasi-Rahasia1' };
const WIDE = { width: 1366, height: 768 };
const TEAM = ['Ayu', 'Bima', 'Citra'].map((n) => `${n} Prestasi ${suffix}`);
const NEAR = `Dewi Prestasi ${suffix}`; // 55 points: SP 1 today, not at 60

let seeded = null;

/** Once per run: the BK user, four students (three at 60 points, one at 55), a provincial type, offset at 50 %. */
async function seed(ctx) {
  if (seeded) return seeded;
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = await apiCall(admin, 'POST', '/api/v1/users', BK);
  assertEqual(user.status, 201, `create BK user ${JSON.stringify(user.body)}`);
  await admin.context().close();
  const sql = databaseOf(BK.username, user.body.id);
  const classId = sql(`INSERT INTO classes (name, grade) VALUES ('XI PR ${suffix}', 11) RETURNING id`).split('\n')[0];
  const ids = [...TEAM, NEAR].map((name, i) =>
    Number(
      sql(`INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id) VALUES (${930000000 + i * 1000 + Math.floor(Math.random() * 999)},
        '0${suffix}${i}', 'PR${suffix}${i}', '${name}', 'P', ${classId}) RETURNING id`).split('\n')[0],
    ),
  );
  const bk = await newPage(ctx);
  await signIn(bk, BK.username, BK.password);
  const cats = await apiCall(bk, 'GET', '/api/v1/violation-categories');
  const vtype = async (name, points) => {
    const r = await apiCall(bk, 'POST', '/api/v1/violation-types', { name: `${name} ${suffix}`, points, category_id: cats.body.data[0].id, default_sanction: '', description: '' });
    assertEqual(r.status, 201, `violation type ${JSON.stringify(r.body)}`);
    return r.body.id;
  };
  const t60 = await vtype('Berkelahi PR', 60);
  const t55 = await vtype('Membolos PR', 55);
  for (const [i, id] of ids.entries()) {
    const r = await apiCall(bk, 'POST', '/api/v1/violations', { student_id: id, type_ids: [i < 3 ? t60 : t55], location: 'Kelas', description: 'Uji prestasi' });
    assertEqual(r.status, 201, `violation ${JSON.stringify(r.body)}`);
  }
  const acats = await apiCall(bk, 'GET', '/api/v1/achievement-categories');
  const akademik = acats.body.data.find((c) => c.name === 'Akademik');
  const type = await apiCall(bk, 'POST', '/api/v1/achievement-types', {
    category_id: akademik.id,
    name: `Lomba Debat ${suffix}`,
    points: { sekolah: 10, kabupaten: 20, provinsi: 40, nasional: null, internasional: null },
  });
  assertEqual(type.status, 201, `achievement type ${JSON.stringify(type.body)}`);
  const policy = await apiCall(bk, 'PUT', '/api/v1/points-policy', { mode: 'offset', offset_cap_percent: 50, amnesty_clean_school_days: 30, amnesty_points: 10 });
  assertEqual(policy.status, 200, `policy ${JSON.stringify(policy.body)}`);
  await bk.context().close();
  seeded = { ids, type: type.body };
  return seeded;
}

async function bkPage(ctx, viewport, lang = 'id') {
  const page = await newPage(ctx, viewport);
  await signIn(page, BK.username, BK.password);
  if (lang !== 'id') {
    await page.evaluate((l) => localStorage.setItem('tatib.language', l), lang);
    await page.reload();
  }
  return page;
}

test('achievements: a counselor records a team\'s provincial win for three students and verifies it; under offset their totals fall', async (ctx) => {
  const { ids, type } = await seed(ctx);
  const page = await bkPage(ctx, WIDE);
  await page.goto('/achievements');
  await page.getByTestId('achievement-record').click();
  const form = page.getByTestId('achievement-form');
  await expectVisible(form, 'record form');
  const picker = form.getByTestId('students-picker');
  for (const name of TEAM) {
    await picker.fill(name);
    await page.getByRole('option', { name: new RegExp(name) }).click();
  }
  await picker.press('Escape'); // a multi-select stays open for the next pick
  await form.getByTestId('achievement-type').click();
  await page.getByRole('option', { name: new RegExp(type.name) }).click();
  await form.getByTestId('achievement-level').click();
  await page.getByRole('option', { name: /Provinsi/ }).click();
  await shot(page, 'achievements-10-record-team-id');
  await form.getByTestId('achievement-save').click();
  await form.waitFor({ state: 'detached' });

  const list = await apiCall(page, 'GET', `/api/v1/achievements?student_id=${ids[0]}`);
  const ach = list.body.data[0];
  assertEqual(ach.students.length, 3, 'one achievement, three students');
  assertEqual(ach.points, 40, 'provincial points');
  const card = page.getByTestId(`achievement-${ach.id}`);
  await card.getByTestId('achievement-verify').click();
  await expectVisible(card.getByTestId('achievement-verified'), 'verified badge');
  await shot(page, 'achievements-11-verified-id');
  for (const id of ids.slice(0, 3)) {
    const p = await apiCall(page, 'GET', `/api/v1/students/${id}/points`);
    assertEqual(p.body.total, 30, `student ${id}: 60 less min(40, 50 % of 60)`);
  }
  const audit = await apiCall(page, 'GET', `/api/v1/point-audit?student_id=${ids[0]}`);
  assertEqual(audit.body.data[0].action, 'offset', 'the point history names the policy');

  // The student page's term certificate: this semester's verified achievements in one PDF.
  await page.goto(`/students/${ids[0]}`);
  await expectVisible(page.getByTestId('term-certificate'), 'term certificate on the student page');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('term-certificate-download').click()]);
  const file = path.join(os.tmpdir(), `tatib-e2e-piagam-${process.pid}.pdf`);
  await download.saveAs(file);
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  assert(text.includes('PIAGAM PENGHARGAAN') && text.includes(TEAM[0]) && text.includes(`Lomba Debat ${suffix}`) && /Semester [12] \((Ganjil|Genap)\)/.test(text),
    `the term certificate:\n${text.slice(0, 600)}`);

  // The same screens in English on a phone.
  const phone = await bkPage(ctx, PHONE, 'en');
  await phone.goto('/achievements');
  await expectVisible(phone.getByRole('heading', { name: 'Student achievements' }), 'English list');
  await expectVisible(phone.getByTestId(`achievement-${ach.id}`).getByTestId('achievement-verified'), 'verified on the phone');
  await noSidewaysScroll(phone, 'achievements on a phone');
  await phone.getByTestId('achievement-record').click();
  await expectVisible(phone.getByTestId('achievement-form'), 'record form on a phone');
  await noSidewaysScroll(phone, 'record form on a phone');
  await shot(phone, 'achievements-12-record-phone-en');
  await phone.goto(`/students/${ids[0]}`);
  await expectVisible(phone.getByText('Download term certificate'), 'term certificate in English on a phone');
  await noSidewaysScroll(phone, 'student page with the term certificate on a phone');
  await phone.getByTestId('student-achievements').scrollIntoViewIfNeeded();
  await shot(phone, 'achievements-13-term-certificate-phone-en');
});

test('achievements: the simulator shows how many change level if SP 1 moves from 50 to 60, and saves nothing', async (ctx) => {
  await seed(ctx);
  for (const [lang, viewport] of [['id', WIDE], ['en', PHONE]]) {
    const page = await bkPage(ctx, viewport, lang);
    await page.goto('/sp-thresholds');
    const first = page.getByTestId('threshold-row-0');
    await expectVisible(first, `thresholds (${lang})`);
    await first.getByLabel(lang === 'id' ? 'Poin minimum' : 'Minimum points').fill('60');
    await page.getByTestId('what-if-run').click();
    const result = page.getByTestId('what-if-result');
    await expectVisible(result, `simulation (${lang})`);
    const server = await apiCall(page, 'POST', '/api/v1/points-policy/simulate', {
      thresholds: [
        { level: 1, name: 'SP 1', min_points: 60 },
        { level: 2, name: 'SP 2', min_points: 100 },
        { level: 3, name: 'SP 3', min_points: 150 },
      ],
    });
    const fell = server.body.changes.filter((c) => c.change === 'fell_back').length;
    assert(fell >= 1, `at least our student at 55 falls back: ${JSON.stringify(server.body.changes)}`);
    const summary = await page.getByTestId('what-if-summary').innerText();
    assert(summary.includes(String(fell)), `the panel says ${fell} fall back: ${summary}`);
    assert((await result.innerText()).includes(NEAR), `${NEAR} is listed`);
    await expectVisible(page.getByTestId('what-if-note'), 'the note that saving rewrites nothing');
    if (viewport === PHONE) await noSidewaysScroll(page, 'what-if on a phone');
    await shot(page, `achievements-20-what-if-${lang}`);
    const stored = await apiCall(page, 'GET', '/api/v1/sp-thresholds');
    assertEqual(stored.body.data[0].min_points, 50, 'SP 1 still at 50: nothing saved');

    // The draft policy carries its own numbers: offset capped at 1 % instead of today's 50 %.
    await page.goto('/violation-types');
    const panel = page.getByTestId('what-if');
    await expectVisible(panel, `what-if under the types (${lang})`);
    const offset = page.getByRole('option', { name: lang === 'id' ? 'Imbangan prestasi' : 'Achievement offset' });
    await openUntil(panel.getByTestId('what-if-policy'), offset, `the what-if's policy choices (${lang})`);
    await offset.click();
    await panel.getByTestId('what-if-cap').fill('1');
    await panel.getByTestId('what-if-run').click();
    await expectVisible(panel.getByTestId('what-if-result'), `simulation with a 1 % cap (${lang})`);
    const today = (await apiCall(page, 'GET', '/api/v1/points-policy')).body;
    const capped = await apiCall(page, 'POST', '/api/v1/points-policy/simulate', { policy: { ...today, mode: 'offset', offset_cap_percent: 1 } });
    const crossed = capped.body.changes.filter((c) => c.change === 'crossed').length;
    assert(crossed >= 3, `the team at 30 goes back to 60 with a 1 % cap: ${JSON.stringify(capped.body.changes)}`);
    const said = await panel.getByTestId('what-if-summary').innerText();
    assert(said.includes(String(crossed)), `the panel says ${crossed} cross: ${said}`);
    if (viewport === PHONE) await noSidewaysScroll(page, 'what-if with a draft cap on a phone');
    assertEqual(today.offset_cap_percent, 50, 'the school keeps its 50 % cap: nothing saved');
  }
});
