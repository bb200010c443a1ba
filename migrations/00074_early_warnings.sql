-- +goose Up
-- Early warnings (docs/reports.md, "Early warnings"). The absence streak
-- reads the absent days of the latest 30 school days: this partial index
-- holds only the student-days with an A hour (about a tenth of them), so
-- that read is an index-only range scan instead of a heap visit per
-- student-day. The points of the academic year per student are summed
-- from the covering index on violations without touching the table.
CREATE INDEX attendance_days_absent_idx ON attendance_days (date, student_id) WHERE a > 0;
CREATE INDEX violations_points_idx ON violations (occurred_on) INCLUDE (student_id, points);

-- +goose Down
DROP INDEX violations_points_idx;
DROP INDEX attendance_days_absent_idx;
