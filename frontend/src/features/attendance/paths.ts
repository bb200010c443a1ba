/** Paths of this feature's pages. */
export const paths = {
  form: '/absensi',
  day: (classId: number | string, date: string) => `/absensi/${classId}/${date}`,
} as const;
