// End-to-end case for backups (issue 17): the administrator opens Settings → Data, downloads a
// backup in the browser (the platform seam's download; the file is pg_dump's custom format,
// "PGDMP"), and the list shows it done with its size, who made it and its checksum; the panel
// on a 360 px phone. Only these: E2E_ONLY=backups npm run e2e
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assert, assertEqual, shot, test } from './harness.mjs';
import { ADMIN_PASSWORD } from './cases.mjs';
import { PHONE, apiCall, expectVisible, newPage, noSidewaysScroll, signIn } from './helpers.mjs';

test('backups: the admin downloads a backup in the browser and the list shows it done with its size and checksum', async (ctx) => {
  const page = await newPage(ctx);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/settings/data');
  const panel = page.getByTestId('backup-panel');
  await expectVisible(panel, 'backup panel');
  await expectVisible(panel.getByTestId('backup-cron'), 'the nightly cron line');
  assert((await panel.getByTestId('backup-cron').innerText()).includes('tatib-server backup'), 'the cron line runs the backup command');
  const before = (await apiCall(page, 'GET', '/api/v1/admin/backups')).body;
  assert(before.pg_dump !== '', `the server found pg_dump: ${JSON.stringify(before)}`);

  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    panel.getByRole('button', { name: 'Unduh cadangan sekarang' }).click(),
  ]);
  assert(/^tatib-([a-z0-9-]+-)?\d{8}-\d{4}\.dump$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  const file = path.join(os.tmpdir(), `tatib-e2e-backup-${process.pid}.dump`);
  await download.saveAs(file);
  const bytes = readFileSync(file);
  rmSync(file, { force: true });
  assertEqual(bytes.subarray(0, 5).toString('latin1'), 'PGDMP', 'a pg_dump custom-format archive');
  const sum = createHash('sha256').update(bytes).digest('hex');

  const after = (await apiCall(page, 'GET', '/api/v1/admin/backups')).body;
  assertEqual(after.data.length, before.data.length + 1, 'one more backup recorded');
  const rec = after.data[0];
  assertEqual(rec.status, 'done', 'the newest backup is done');
  assertEqual(rec.size_bytes, bytes.length, 'the recorded size is the file’s');
  assertEqual(rec.sha256, sum, 'the recorded checksum is the file’s');
  assertEqual(rec.via, 'browser', 'made in the browser');

  const row = panel.getByTestId('backup-row').first();
  await expectVisible(row.getByText('Selesai'), 'the row says done');
  const text = await row.innerText();
  assert(text.includes(sum.slice(0, 12)), `the row shows the short checksum: ${text}`);
  assert(text.includes('Peramban') && /\d MB/.test(text), `the row shows the size and the browser: ${text}`);
  await shot(page, 'backups-01-desktop');

  const phone = await newPage(ctx, PHONE);
  await signIn(phone, 'admin', ADMIN_PASSWORD);
  await phone.goto('/settings/data');
  await expectVisible(phone.getByTestId('backup-row'), 'the backup on a phone');
  await noSidewaysScroll(phone, 'backups on a phone');
  await shot(phone, 'backups-02-phone');
});
