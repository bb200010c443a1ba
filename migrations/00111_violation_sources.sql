-- +goose Up
-- Behaviour and attendance apart (docs/violations.md, "Sumber").
--
-- Each user's "Sumber" (behaviour, attendance or all) that the violation
-- list, the dashboard, the reports and the early warnings open with. No
-- row, or a null source: the role's default (followup.DefaultSource).
CREATE TABLE user_preferences (
    user_id          bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    violation_source text CHECK (violation_source IN ('behaviour', 'attendance', 'all')),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- The late early warning reads the late (any T hour) student-days of the
-- latest school days: like the absent days' index (00074), this partial
-- index holds only those rows, so the read is an index-only range scan.
CREATE INDEX attendance_days_late_idx ON attendance_days (date, student_id) WHERE t > 0;

-- +goose Down
DROP INDEX attendance_days_late_idx;
DROP TABLE user_preferences;
