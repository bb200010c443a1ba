/** The face feature's client paths. */
export const paths = {
  enrol: '/students/:id/face',
  kiosk: '/kiosk',
};

export const enrolPath = (studentId: number) => `/students/${studentId}/face`;
export const studentPath = (studentId: number) => `/students/${studentId}`;
