-- +goose Up
-- An anonymous report through /lapor tells the people who triage it: the
-- new case's team and the administrators (docs/cases.md, "The anonymous
-- channel"). The notification names the case number and category only.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('violation', 'attendance', 'letter', 'violation_corrected', 'case_report'));

-- +goose Down
DELETE FROM notifications WHERE kind = 'case_report';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('violation', 'attendance', 'letter', 'violation_corrected'));
