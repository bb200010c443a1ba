/** Paths of this feature's pages. */
export const paths = {
  list: '/peringatan-dini',
} as const;
