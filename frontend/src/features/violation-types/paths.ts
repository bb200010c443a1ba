/** Paths of this feature's pages (the section tabs link them). */
export const paths = {
  types: '/violation-types',
  import: '/violation-types/import',
  thresholds: '/sp-thresholds',
  handling: '/handling-types',
} as const;
