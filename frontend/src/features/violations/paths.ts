/** Paths of this feature's pages. */
export const paths = {
  list: '/violations',
  record: '/violations/new',
  detail: (id: number | string) => `/violations/${id}`,
} as const;
