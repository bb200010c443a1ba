/** Paths of this feature's pages. */
export const paths = {
  review: '/wajah',
  log: '/wajah?tab=log',
  settings: '/settings/face',
} as const;
