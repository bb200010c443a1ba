// End-to-end cases for the violation master data screens (types & categories, SP thresholds,
// handling types, the xlsx import). Registers its cases with harness.mjs's test(); run.mjs loads
// every *.test.mjs. Only these: E2E_ONLY=violation-types npm run e2e
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';


/** A stored (uncompressed) zip of the given files: just enough for a small .xlsx. */
function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text, 'utf8');
    const nameBuf = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const xmlEscape = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A one-sheet .xlsx with the rows as given (strings inline, numbers as numbers). */
function xlsx(rows) {
  const col = (i) => String.fromCharCode(65 + i);
  const sheetRows = rows
    .map((r, ri) => {
      const cells = r
        .map((v, ci) => {
          const ref = `${col(ci)}${ri + 1}`;
          return typeof v === 'number' ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(v)}</t></is></c>`;
        })
        .join('');
      return `<row r="${ri + 1}">${cells}</row>`;
    })
    .join('');
  return zip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
  });
}

test('violation-types: system types are locked; create a category and a type; bad input is shown at the fields', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Jenis pelanggaran' }).click();
  await page.waitForURL(/\/violation-types$/);

  for (const slug of ['alpha', 'terlambat']) {
    const row = page.getByTestId(`type-row-${slug}`);
    await expectVisible(row, `${slug} row`);
    await expectVisible(row.getByTestId('system-badge'), `${slug} lock badge`);
    // Edit and delete sit in one row menu, never as two small icons side by side.
    await row.getByRole('button', { name: /^Pilihan untuk / }).click();
    const menu = page.getByRole('menu');
    // count() does not wait: the menu must be open before its items are counted.
    await menu.getByRole('menuitem', { name: /^Ubah / }).waitFor();
    assertEqual(await menu.getByRole('menuitem', { name: /^Hapus / }).count(), 0, `${slug} delete controls`);
    assertEqual(await menu.getByRole('menuitem', { name: /^Ubah / }).count(), 1, `${slug} edit control`);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  }
  // One navigation: the sidebar; no section tabs repeating it, no "Import" tab.
  assertEqual(await page.getByRole('tablist').count(), 0, 'no section tabs');
  // Grouped under Ringan, whose header carries the category's colour.
  const ringan = page.getByTestId('category-Ringan');
  await expectVisible(ringan.getByTestId('type-row-alpha'), 'alpha inside Ringan');
  const bg = await ringan.getByTestId('category-badge').evaluate((el) => getComputedStyle(el).backgroundColor);
  assert(bg !== 'rgba(0, 0, 0, 0)' && bg !== 'rgb(255, 255, 255)', `category badge has a colour (${bg})`);
  await shot(page, 'violation-types-20-violation-types');

  // A system type: slug read-only, no "active" switch to turn off.
  await page.getByTestId('type-row-alpha').getByRole('button', { name: 'Pilihan untuk Alpha' }).click();
  await page.getByRole('menuitem', { name: 'Ubah Alpha' }).click();
  let dialog = page.getByRole('dialog');
  assertEqual(await page.getByText('slug').count(), 0, 'no developer words on screen');
  assertEqual(await dialog.getByLabel('Kode singkat').getAttribute('readonly'), '', 'alpha code read-only');
  assertEqual(await dialog.getByLabel('Kode singkat').inputValue(), 'alpha', 'alpha code');
  assert(await dialog.getByRole('switch', { name: 'Aktif' }).isDisabled(), 'alpha cannot be deactivated');
  await dialog.getByRole('button', { name: 'Batal' }).click();
  await dialog.waitFor({ state: 'hidden' });

  // A new category with a colour.
  await page.getByRole('button', { name: 'Tambah kategori' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Nama kategori').fill('Sangat Berat');
  await dialog.getByRole('textbox', { name: 'Warna' }).click();
  await page.getByRole('option', { name: 'Ungu', exact: true }).click();
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const sangat = page.getByTestId('category-Sangat Berat');
  await expectVisible(sangat, 'new category');
  await expectVisible(sangat.getByText('Belum ada jenis di kategori ini.'), 'empty category');

  // A type in it: empty name, then negative points, each shown at its field.
  await page.getByRole('button', { name: 'Tambah jenis: Sangat Berat' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await expectVisible(dialog.getByText('Wajib diisi.'), 'name required');
  assertEqual(await dialog.getByRole('textbox', { name: /^Nama/ }).getAttribute('aria-invalid'), 'true', 'name marked invalid');
  await dialog.getByRole('textbox', { name: /^Nama/ }).fill('Membawa senjata tajam');
  await dialog.getByLabel('Poin').fill('-5');
  await dialog.getByLabel('Sanksi bawaan').fill('Skorsing dan panggilan orang tua');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  const points = dialog.getByLabel('Poin');
  await page.waitForFunction((el) => el.getAttribute('aria-invalid') === 'true', await points.elementHandle());
  const pointsError = await points.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')?.split(' ').find((id) => id.endsWith('error')) ?? '')?.textContent ?? '');
  assert(pointsError.length > 0, 'points error text from the server');
  await shot(page, 'violation-types-21-type-form-field-error');
  await points.fill('100');
  await dialog.getByRole('button', { name: 'Simpan' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expectVisible(sangat.getByTestId('type-row-membawa-senjata-tajam'), 'new type row in its category');
  await expectVisible(sangat.getByText('Skorsing dan panggilan orang tua'), 'sanction shown');

  // A category with types cannot be deleted: the server's 409 message stays in the dialog.
  await page.getByRole('button', { name: 'Pilihan untuk kategori Sangat Berat' }).click();
  await page.getByRole('menuitem', { name: 'Hapus kategori Sangat Berat' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Hapus' }).click();
  await expectVisible(dialog.getByTestId('delete-conflict'), 'category 409 message');
  await shot(page, 'violation-types-22-category-in-use');
  await dialog.getByRole('button', { name: 'Batal' }).click();
  await dialog.waitFor({ state: 'hidden' });

  // A type is deleted after confirmation.
  await sangat.getByRole('button', { name: 'Pilihan untuk Membawa senjata tajam' }).click();
  await page.getByRole('menuitem', { name: 'Hapus Membawa senjata tajam' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Hapus' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await sangat.getByTestId('type-row-membawa-senjata-tajam').waitFor({ state: 'detached' });

  // Search narrows the list.
  await page.getByLabel('Cari').fill('terlambat');
  await page.getByTestId('type-row-alpha').waitFor({ state: 'detached' });
  await expectVisible(page.getByTestId('type-row-terlambat'), 'search result');
});

test('violation-types: SP thresholds refuse a level not above the one before, then save', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('navigation', { name: 'Navigasi utama' }).getByRole('link', { name: 'Ambang SP' }).click();
  await page.waitForURL(/\/sp-thresholds$/);
  await expectVisible(page.getByTestId('thresholds-rule'), 'the rule');
  const row1 = page.getByTestId('threshold-row-1');
  const min1 = row1.getByLabel('Poin minimum');
  assertEqual(await min1.inputValue(), '100', 'SP 2 default');
  await min1.fill('40');
  await expectVisible(page.getByTestId('thresholds-not-increasing'), 'hint while editing');
  await page.getByRole('button', { name: 'Simpan ambang' }).click();
  await page.waitForFunction((el) => el.getAttribute('aria-invalid') === 'true', await min1.elementHandle());
  assertEqual(await page.getByTestId('threshold-row-0').getByLabel('Poin minimum').getAttribute('aria-invalid'), 'false', 'row 0 not marked');
  await expectVisible(page.getByTestId('thresholds-error'), 'summary');
  await shot(page, 'violation-types-23-thresholds-error');

  await min1.fill('120');
  // Add a fourth level and save everything.
  await page.getByRole('button', { name: 'Tambah tingkat' }).click();
  const row3 = page.getByTestId('threshold-row-3');
  await row3.getByLabel('Nama').fill('SP 4');
  await row3.getByLabel('Poin minimum').fill('200');
  await page.getByRole('button', { name: 'Simpan ambang' }).click();
  await expectVisible(page.getByText('Ambang SP disimpan.'), 'saved notification');
  await page.reload();
  await expectVisible(page.getByTestId('threshold-row-3'), 'fourth level after reload');
  assertEqual(await page.getByTestId('threshold-row-1').getByLabel('Poin minimum').inputValue(), '120', 'SP 2 saved');
  await shot(page, 'violation-types-24-thresholds');

  // Remove the fourth level again.
  await page.getByRole('button', { name: 'Hapus tingkat 4' }).click();
  await page.getByRole('button', { name: 'Simpan ambang' }).click();
  await expectVisible(page.getByText('Ambang SP disimpan.'), 'saved notification');
  const stored = await apiCall(page, 'GET', '/api/v1/sp-thresholds');
  assertEqual(stored.body.data.length, 3, 'levels stored');
});

test('violation-types: handling types: add, rename, reorder, deactivate, delete', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/handling-types');
  const list = page.getByTestId('handling-list');
  await expectVisible(list.getByText('Teguran Lisan', { exact: true }), 'default handling types');
  // A duplicate name is refused at the input.
  await page.getByLabel('Jenis penanganan baru').fill('teguran  lisan');
  await page.getByRole('button', { name: 'Tambah', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('input[aria-label="Jenis penanganan baru"]')?.getAttribute('aria-invalid') === 'true');
  await page.getByLabel('Jenis penanganan baru').fill('Mediasi');
  await page.getByRole('button', { name: 'Tambah', exact: true }).click();
  await expectVisible(list.getByText('Mediasi', { exact: true }), 'new handling type');

  await page.getByRole('button', { name: 'Pilihan untuk Mediasi' }).click();
  await page.getByRole('menuitem', { name: 'Ganti nama Mediasi' }).click();
  await list.getByRole('textbox', { name: 'Nama', exact: true }).fill('Mediasi Teman Sebaya');
  await list.getByRole('button', { name: 'Simpan' }).click();
  await expectVisible(list.getByText('Mediasi Teman Sebaya', { exact: true }), 'renamed');

  const count = await list.locator('[data-testid^="handling-row-"]').count();
  await page.getByRole('button', { name: 'Naikkan Mediasi Teman Sebaya' }).click();
  await expectVisible(page.getByTestId(`handling-row-${count - 2}`).getByText('Mediasi Teman Sebaya'), 'moved up one place');

  // The switch follows the server: it turns off once the PATCH is answered.
  const toggle = page.getByRole('switch', { name: 'Aktifkan Mediasi Teman Sebaya' });
  await toggle.click({ force: true });
  await expectVisible(page.getByText('Mediasi Teman Sebaya dinonaktifkan.'), 'deactivated notification');
  await page.waitForFunction((el) => !el.checked, await toggle.elementHandle());
  await shot(page, 'violation-types-25-handling-types');

  await page.getByRole('button', { name: 'Pilihan untuk Mediasi Teman Sebaya' }).click();
  await page.getByRole('menuitem', { name: 'Hapus Mediasi Teman Sebaya' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Hapus' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await list.getByText('Mediasi Teman Sebaya', { exact: true }).waitFor({ state: 'detached' });
});

test('violation-types: download the template, preview a file, then import it on confirmation', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const typeCount = async () => (await apiCall(page, 'GET', '/api/v1/violation-types')).body.data.length;

  await page.goto('/violation-types');
  await page.getByRole('button', { name: 'Impor dari Excel' }).click();
  await page.waitForURL(/\/violation-types\/import$/);
  await expectVisible(page.getByText('Tarik berkas .xlsx ke sini, atau pilih berkas'), 'desktop drop text');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Unduh template' }).click()]);
  assertEqual(download.suggestedFilename(), 'template-jenis-pelanggaran.xlsx', 'template file name');
  const templatePath = path.join(os.tmpdir(), `tatib-e2e-template-${process.pid}.xlsx`);
  await download.saveAs(templatePath);
  const bytes = await readFile(templatePath);
  assertEqual(bytes.subarray(0, 2).toString('latin1'), 'PK', 'template is a zip (xlsx)');

  // Not an xlsx: the server says what it is.
  const fakePath = path.join(os.tmpdir(), `tatib-e2e-bukan-${process.pid}.xlsx`);
  await writeFile(fakePath, 'kategori,nama,poin\nRingan,Contoh,5\n');
  await page.locator('[data-testid="import-dropzone"] input[type="file"]').setInputFiles(fakePath);
  await expectVisible(page.getByTestId('import-error'), 'not-an-xlsx error');
  await shot(page, 'violation-types-26-import-error');

  // The template as it is: its rows are examples, so the preview has nothing to import.
  const before = await typeCount();
  await page.locator('[data-testid="import-dropzone"] input[type="file"]').setInputFiles(templatePath);
  const preview = page.getByTestId('import-preview');
  await expectVisible(preview, 'preview of the unchanged template');
  assertEqual(await page.getByTestId('import-error').count(), 0, 'error cleared');
  assertEqual((await page.getByTestId('import-count-created').innerText()).split('\n')[0], '0', 'nothing to create');
  assertEqual((await page.getByTestId('import-count-skipped').innerText()).split('\n')[0], '3', 'three example rows skipped');
  await expectVisible(page.getByTestId('import-skipped').getByText('Baris contoh dari templat; tidak diimpor.').first(), 'example reason');
  assert(await page.getByTestId('import-confirm').isDisabled(), 'nothing to confirm');
  assertEqual(await typeCount(), before, 'the preview saved nothing');
  await shot(page, 'violation-types-27-import-template-preview');

  // A file the test builds: wrong headers are a 422 naming the expected ones…
  const wrongPath = path.join(os.tmpdir(), `tatib-e2e-judul-${process.pid}.xlsx`);
  await writeFile(wrongPath, xlsx([['Category', 'Jenis', 'Skor'], ['Ringan', 'Contoh', 5]]));
  await page.locator('[data-testid="import-dropzone"] input[type="file"]').setInputFiles(wrongPath);
  const headersError = page.getByTestId('import-error');
  await expectVisible(headersError.getByText('Baris judul tidak sesuai'), 'wrong headers title');
  await expectVisible(headersError.getByText('deskripsi', { exact: true }), 'expected headers listed');
  await shot(page, 'violation-types-26b-import-wrong-headers');

  // …and English headers with a misspelt category, a rejected row and a duplicate in the file:
  // the preview names the new category before anything is saved.
  const filledPath = path.join(os.tmpdir(), `tatib-e2e-isi-${process.pid}.xlsx`);
  await writeFile(
    filledPath,
    xlsx([
      ['No', 'category', 'name', 'points', 'sanction'],
      [1, 'Kebersihan', 'Membuang sampah sembarangan', 5, 'Membersihkan kelas'],
      [2, 'Kebersihan', 'Mencoret-coret meja', -3, 'Mengecat ulang'],
      [3, 'kebersihan', 'membuang  sampah sembarangan', 5, ''],
      [4, 'Berat', 'Merusak peralatan laboratorium dengan sengaja', 50, ''],
    ]),
  );
  await page.locator('[data-testid="import-dropzone"] input[type="file"]').setInputFiles(filledPath);
  await page.waitForFunction(() => document.querySelector('[data-testid="import-preview"] h2')?.textContent?.includes('tatib-e2e-isi'));
  await expectVisible(page.getByTestId('import-new-categories').getByText(/Kebersihan belum ada/), 'new category warned');
  await expectVisible(page.getByTestId('import-created').getByText('kategori baru'), 'new category marked on its row');
  assert((await page.getByTestId('import-rejected').locator('tbody tr').first().innerText()).startsWith('3'), 'rejected row 3');
  assert((await page.getByTestId('import-skipped').locator('tbody tr').first().innerText()).startsWith('4'), 'skipped row 4 (duplicate in the file)');
  assertEqual(await typeCount(), before, 'still nothing saved');
  await shot(page, 'violation-types-27b-import-preview');

  // Confirming imports the same file.
  await page.getByRole('button', { name: 'Impor 2 jenis' }).click();
  const result = page.getByTestId('import-result');
  await expectVisible(result, 'import result');
  assertEqual((await page.getByTestId('import-count-created').innerText()).split('\n')[0], '2', 'created count');
  await expectVisible(page.getByText('Kategori baru: Kebersihan'), 'new category named');
  assertEqual(await typeCount(), before + 2, 'two types saved');
  await shot(page, 'violation-types-27c-import-result');

  // The types list has the imported types (the query was refreshed).
  await page.getByRole('button', { name: 'Lihat jenis pelanggaran' }).click();
  await page.waitForURL(/\/violation-types$/);
  await expectVisible(page.getByTestId('category-Berat').getByText('Merusak peralatan laboratorium dengan sengaja'), 'imported type listed');
  await expectVisible(page.getByTestId('category-Kebersihan').getByText('Membuang sampah sembarangan'), 'imported category listed');
});

test('violation-types: a homeroom teacher sees the SP thresholds as text, marked view only', async (ctx) => {
  const admin = await newPage(ctx);
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  const user = { username: `wali.sp${process.pid}`, name: 'Wali Kelas Ambang', role: 'wali_kelas', email: '', phone: '', password: 'wali-Rahasia1' };
  const res = await apiCall(admin, 'POST', '/api/v1/users', user);
  assert(res.status === 201 || res.status === 200, `create homeroom teacher: ${res.status} ${JSON.stringify(res.body)}`);
  await admin.context().close();

  const page = await newPage(ctx);
  await signIn(page, user.username, user.password);
  await page.goto('/sp-thresholds');
  const first = page.getByTestId('threshold-row-0');
  await expectVisible(first, 'first threshold');
  assertEqual(await page.getByTestId('view-only').count(), 1, 'one view-only mark');
  await expectVisible(first.getByText('SP 1', { exact: true }), 'name as text');
  assertEqual(await page.locator('main input, main textarea').count(), 0, 'no inputs');
  assertEqual(await page.getByTestId('thresholds-rule').count(), 0, 'no editing rules');
  assertEqual(await page.getByRole('button', { name: 'Simpan ambang' }).count(), 0, 'no save button');
  await shot(page, 'violation-types-24b-thresholds-view-only');
});

test('violation-types: phone width (360 px) screens fit without sideways scrolling', async (ctx) => {
  const page = await newPage(ctx, PHONE);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/violation-types');
  await expectVisible(page.getByTestId('type-row-alpha'), 'alpha row');
  await noSidewaysScroll(page, 'types');
  await shot(page, 'violation-types-28-phone-violation-types');

  await page.goto('/sp-thresholds');
  await expectVisible(page.getByTestId('threshold-row-0'), 'threshold row');
  await noSidewaysScroll(page, 'thresholds');
  await shot(page, 'violation-types-29-phone-thresholds');

  await page.goto('/handling-types');
  await expectVisible(page.getByTestId('handling-row-0'), 'handling row');
  await noSidewaysScroll(page, 'handling types');
  await shot(page, 'violation-types-30-phone-handling-types');

  // Touch targets: the row menu is at least 44 px; no section tabs.
  await page.goto('/violation-types');
  const menuButton = page.getByTestId('type-row-alpha').getByRole('button', { name: 'Pilihan untuk Alpha' });
  const box = await menuButton.boundingBox();
  assert(box && box.width >= 44 && box.height >= 44, `row menu is ${box?.width}×${box?.height} px`);
  assertEqual(await page.getByRole('tablist').count(), 0, 'no section tabs on a phone');

  await page.goto('/violation-types/import');
  await expectVisible(page.getByText('Pilih berkas .xlsx dari ponsel Anda'), 'phone wording: choose, not drag');
  assertEqual(await page.getByText('Tarik berkas').count(), 0, 'no "drag here" on a phone');
  const templatePath = path.join(os.tmpdir(), `tatib-e2e-template-${process.pid}.xlsx`);
  await page.locator('[data-testid="import-dropzone"] input[type="file"]').setInputFiles(templatePath);
  await expectVisible(page.getByTestId('import-preview'), 'import preview');
  await noSidewaysScroll(page, 'import preview');
  await shot(page, 'violation-types-31-phone-import-preview');
});
