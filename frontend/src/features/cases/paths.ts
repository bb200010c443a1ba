/** Paths of this feature's pages. */
export const paths = {
  list: '/kasus',
  detail: '/kasus/:id',
  of: (id: number) => `/kasus/${id}`,
} as const;
