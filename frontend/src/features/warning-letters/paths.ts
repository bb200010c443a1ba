/** Paths of this feature's pages. */
export const paths = {
  letters: '/surat-peringatan',
  letter: '/surat-peringatan/:id',
  pointHistory: '/riwayat-poin',
} as const;

export const letterPath = (id: number) => `/surat-peringatan/${id}`;
export const pointHistoryPath = (studentId?: number) => (studentId ? `/riwayat-poin?student_id=${studentId}` : '/riwayat-poin');
