/** Paths of this feature's pages. */
export const paths = {
  log: '/pesan-orang-tua',
  failed: '/pesan-orang-tua?status=failed',
  settings: '/settings/messaging',
} as const;
