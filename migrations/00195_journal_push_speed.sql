-- +goose Up
-- A school day's journal push (issue 25, docs/attendance.md "Speed"):
--
-- The ledger reads each touched student's academic-year total
-- (student_year_points) by the student's violations of that year: with
-- the points in the index the read is index-only instead of one heap
-- fetch per violation (a year holds ~100 a student once attendance adds
-- its automatic ones). Same key and name as before.
CREATE INDEX violations_student_points_idx ON violations (student_id, occurred_on) INCLUDE (points);
DROP INDEX violations_student_idx;
ALTER INDEX violations_student_points_idx RENAME TO violations_student_idx;

-- The grouped attendance notification of a recipient's day is found and
-- replaced by every push (notify.AttendanceTx): by its user and day, not
-- by a scan of every notification.
CREATE INDEX notifications_attendance_day_idx ON notifications (user_id, (params->>'date')) WHERE kind = 'attendance';

-- +goose Down
DROP INDEX notifications_attendance_day_idx;
CREATE INDEX violations_student_plain_idx ON violations (student_id, occurred_on);
DROP INDEX violations_student_idx;
ALTER INDEX violations_student_plain_idx RENAME TO violations_student_idx;
