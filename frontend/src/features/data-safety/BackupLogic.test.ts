import { describe, expect, it } from 'vitest';
import { megabytes, NIGHTLY_CRON, shortSum } from './BackupLogic';
import { formatNumber } from '@/lib/numbers';

describe('backup sizes and checksums', () => {
  it('shows MB with one decimal in the language’s separators', () => {
    expect(megabytes(0)).toBe(0);
    expect(megabytes(1048576 * 12.34)).toBe(12.3);
    expect(formatNumber(megabytes(1048576 * 1234.56), 'id')).toBe('1.234,6');
    expect(formatNumber(megabytes(1048576 * 1234.56), 'en')).toBe('1,234.6');
  });
  it('shortens a checksum to 12 hex digits', () => {
    expect(shortSum('a'.repeat(64))).toBe('a'.repeat(12));
    expect(shortSum('')).toBe('');
  });
  it('keeps 14 backups and never keeps a half-written one', () => {
    expect(NIGHTLY_CRON).toContain('tail -n +15');
    expect(NIGHTLY_CRON).toContain('> $f.part && mv $f.part $f');
    // cron treats a bare % as a newline
    expect(NIGHTLY_CRON.replaceAll('\\%', '')).not.toContain('%');
  });
});
