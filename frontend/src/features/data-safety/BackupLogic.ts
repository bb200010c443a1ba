/** A size in MB (1 MB = 1,048,576 bytes) with one decimal, for formatNumber. */
export function megabytes(bytes: number): number {
  return Math.round((bytes / 1048576) * 10) / 10;
}

/** The first 12 hex digits of a checksum: enough to compare by eye. */
export function shortSum(sha256: string): string {
  return sha256.slice(0, 12);
}

/**
 * The nightly backup for the server's administrator (docs/data-safety.md): 01.30 every night,
 * into /var/backups/tatib, written under .part and renamed only when complete, the newest 14 kept.
 * /etc/tatib/env holds `export DATABASE_URL=…` as the service has it.
 */
export const NIGHTLY_CRON =
  '30 1 * * * . /etc/tatib/env && cd /var/backups/tatib && f=tatib-$(date +\\%Y\\%m\\%d-\\%H\\%M).dump && ' +
  'tatib-server backup > $f.part && mv $f.part $f && ls -1t tatib-*.dump | tail -n +15 | xargs -r rm --';
