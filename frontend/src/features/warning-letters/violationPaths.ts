/**
 * Pages of the violations feature this one links to (its paths.ts: list /violations, record
 * /violations/new, detail /violations/:id). Kept here rather than imported so this feature
 * builds on its own; the record form reads ?student_id= to start with the student chosen.
 */
export const violationPath = (id: number) => `/violations/${id}`;
export const recordViolationPath = (studentId: number) => `/violations/new?student_id=${studentId}`;
