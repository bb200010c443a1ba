-- +goose Up
-- Students in the portal (docs/portal.md, "Students"), behind the school
-- setting portal.students (off by default): a student signs in with their
-- NISN and a code their homeroom teacher prints, and sees their own record.
-- A portal session is a guardian's or a student's, never both.
ALTER TABLE portal_sessions ALTER COLUMN guardian_id DROP NOT NULL,
    ADD COLUMN student_id bigint REFERENCES students(id) ON DELETE CASCADE,
    ADD CONSTRAINT portal_sessions_one_viewer CHECK ((guardian_id IS NULL) <> (student_id IS NULL));
CREATE INDEX portal_sessions_student_idx ON portal_sessions (student_id) WHERE student_id IS NOT NULL;
ALTER TABLE portal_codes ADD COLUMN student_id bigint REFERENCES students(id) ON DELETE CASCADE;
ALTER TABLE portal_codes DROP CONSTRAINT portal_codes_kind_check;
ALTER TABLE portal_codes ADD CONSTRAINT portal_codes_kind_check CHECK (kind IN ('whatsapp', 'activation', 'student'));

-- +goose Down
DELETE FROM portal_codes WHERE kind = 'student';
ALTER TABLE portal_codes DROP CONSTRAINT portal_codes_kind_check;
ALTER TABLE portal_codes ADD CONSTRAINT portal_codes_kind_check CHECK (kind IN ('whatsapp', 'activation'));
ALTER TABLE portal_codes DROP COLUMN student_id;
DELETE FROM portal_sessions WHERE student_id IS NOT NULL;
ALTER TABLE portal_sessions DROP CONSTRAINT portal_sessions_one_viewer, DROP COLUMN student_id;
ALTER TABLE portal_sessions ALTER COLUMN guardian_id SET NOT NULL;
