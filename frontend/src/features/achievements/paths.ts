/** Paths of this feature's pages. */
export const paths = {
  list: '/achievements',
  types: '/achievement-types',
} as const;
