-- +goose Up
-- One points ledger (issue 23; docs/violations.md, "Points and letters"):
-- one open warning letter per student and academic year that rises with the
-- level, the point audit in the order its entries committed, corrections,
-- and parents told of a letter when the school sends it.

-- The point audit lists by id: a bigserial taken by the INSERT, which the
-- ledger runs while it holds the student's row lock, so a student's entries
-- number in the order they committed. (Their "at" is the transaction's
-- start: a recording that waited for the lock started before the one it
-- waited for and would list below it.) "correct" is a corrected violation.
ALTER TABLE point_audit DROP CONSTRAINT point_audit_action_check;
ALTER TABLE point_audit ADD CONSTRAINT point_audit_action_check
    CHECK (action IN ('record', 'delete', 'update', 'correct', 'auto_record', 'auto_update', 'auto_delete'));
DROP INDEX point_audit_student_idx;
DROP INDEX point_audit_at_idx;
CREATE INDEX point_audit_student_id_idx ON point_audit (student_id, id DESC);

-- levels_covered: every SP level the letter stands for, lowest first; its
-- last is level (the highest). An open letter (draft, printed, signed)
-- raised to the next level adds it; one lowered drops what the total no
-- longer reaches. total_fallen_at: a delivered letter whose level the
-- student's total has since fallen below (it stays as it went out).
-- sent_*: when a counselor marked it sent to the parent (or printed it, by
-- the messaging setting), and at which level.
ALTER TABLE warning_letters
    ADD COLUMN levels_covered    integer[],
    ADD COLUMN total_fallen_at   timestamptz,
    ADD COLUMN sent_to_parent_at timestamptz,
    ADD COLUMN sent_to_parent_by bigint REFERENCES users(id) ON DELETE SET NULL,
    ADD COLUMN sent_level        integer;
UPDATE warning_letters SET levels_covered = ARRAY[level];
ALTER TABLE warning_letters ALTER COLUMN levels_covered SET NOT NULL,
    ADD CONSTRAINT warning_letters_levels_covered CHECK (cardinality(levels_covered) >= 1
        AND levels_covered[cardinality(levels_covered)] = level);
-- A writer that names no levels (an import, a fixture) writes a letter of
-- its one level.
-- +goose StatementBegin
CREATE FUNCTION warning_letters_levels_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.levels_covered IS NULL THEN
        NEW.levels_covered := ARRAY[NEW.level];
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER warning_letters_levels_default BEFORE INSERT ON warning_letters
    FOR EACH ROW EXECUTE FUNCTION warning_letters_levels_default();
CREATE INDEX warning_letters_student_year_idx ON warning_letters (student_id, academic_year_start);

-- The history says what happened at which level and, for a letter a rule
-- drafted, raised, lowered or withdrew, which violation caused it (no
-- foreign key: the entry outlives a deleted violation).
ALTER TABLE warning_letter_events ADD COLUMN level integer, ADD COLUMN violation_id bigint;
UPDATE warning_letter_events e SET level = w.level FROM warning_letters w WHERE w.id = e.letter_id;

-- Students holding several open letters of one year (before this rule)
-- keep one: the lowest, raised to cover the others' levels; the others are
-- withdrawn as merged into it.
CREATE TEMPORARY TABLE letter_merge ON COMMIT DROP AS
SELECT g.keep_id, g.top_id, g.others, g.levels
FROM (SELECT (array_agg(id ORDER BY level, id))[1] AS keep_id,
             (array_agg(id ORDER BY level DESC, id DESC))[1] AS top_id,
             (array_agg(id ORDER BY level, id))[2:] AS others,
             array_agg(DISTINCT level ORDER BY level) AS levels
      FROM warning_letters WHERE status IN ('draft', 'printed', 'signed')
      GROUP BY student_id, academic_year_start HAVING count(*) > 1) g;
UPDATE warning_letters w SET status = 'withdrawn', withdrawn_at = now(), withdrawn_reason = 'points.letter.merged', updated_at = now()
FROM letter_merge m WHERE w.id = ANY(m.others);
INSERT INTO warning_letter_events (letter_id, status, actor_name, level)
SELECT w.id, 'withdrawn', 'system', w.level FROM letter_merge m JOIN warning_letters w ON w.id = ANY(m.others);
UPDATE warning_letters w SET level = t.level, min_points = t.min_points, points = GREATEST(w.points, t.points),
    violation_id = COALESCE(t.violation_id, w.violation_id), levels_covered = m.levels,
    name = CASE WHEN substring(w.name FROM '^(.*\D)\d+$') = substring(t.name FROM '^(.*\D)\d+$')
        THEN w.name || '–' || substring(t.name FROM '\d+$') ELSE w.name || '–' || t.name END,
    updated_at = now()
FROM letter_merge m JOIN warning_letters t ON t.id = m.top_id
WHERE w.id = m.keep_id;
INSERT INTO warning_letter_events (letter_id, status, actor_name, level, violation_id)
SELECT w.id, 'raised', 'system', w.level, w.violation_id FROM letter_merge m JOIN warning_letters w ON w.id = m.keep_id;

-- At most one open letter per student and academic year; with the row
-- lock every change of points holds, this is what keeps "one open letter"
-- under concurrent recordings.
CREATE UNIQUE INDEX warning_letters_one_open_key ON warning_letters (student_id, academic_year_start)
    WHERE status IN ('draft', 'printed', 'signed');

-- Parent messages. A letter's message goes once per letter and level
-- (letter_level), when the school sends it; a withdrawal after it went out
-- sends one correction. An attendance day's message (attendance_date) is
-- one per student and day, re-rendered and held back by every change of
-- that day until it settles; it has no violation_id.
ALTER TABLE parent_messages
    ADD COLUMN letter_level    integer,
    ADD COLUMN correction      boolean NOT NULL DEFAULT false,
    ADD COLUMN attendance_date date;
UPDATE parent_messages m SET letter_level = w.level FROM warning_letters w WHERE w.id = m.letter_id AND m.event = 'warning_letter';
DROP INDEX parent_messages_letter_key;
CREATE UNIQUE INDEX parent_messages_letter_level_key ON parent_messages (letter_id, letter_level)
    WHERE event = 'warning_letter' AND NOT correction AND letter_id IS NOT NULL;
CREATE UNIQUE INDEX parent_messages_letter_correction_key ON parent_messages (letter_id)
    WHERE event = 'warning_letter' AND correction AND letter_id IS NOT NULL;
CREATE UNIQUE INDEX parent_messages_attendance_day_key ON parent_messages (student_id, attendance_date)
    WHERE attendance_date IS NOT NULL;

-- A corrected violation tells the people its recording told.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('violation', 'attendance', 'letter', 'violation_corrected'));

-- +goose Down
DELETE FROM notifications WHERE kind = 'violation_corrected';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('violation', 'attendance', 'letter'));
DROP INDEX parent_messages_attendance_day_key;
DROP INDEX parent_messages_letter_correction_key;
DROP INDEX parent_messages_letter_level_key;
DELETE FROM parent_messages WHERE correction OR attendance_date IS NOT NULL;
DELETE FROM parent_messages m WHERE m.event = 'warning_letter' AND m.id <> (SELECT min(x.id) FROM parent_messages x
    WHERE x.event = 'warning_letter' AND x.letter_id = m.letter_id);
CREATE UNIQUE INDEX parent_messages_letter_key ON parent_messages (letter_id) WHERE event = 'warning_letter' AND letter_id IS NOT NULL;
ALTER TABLE parent_messages DROP COLUMN attendance_date, DROP COLUMN correction, DROP COLUMN letter_level;
DROP INDEX warning_letters_one_open_key;
ALTER TABLE warning_letter_events DROP COLUMN violation_id, DROP COLUMN level;
DROP INDEX warning_letters_student_year_idx;
DROP TRIGGER warning_letters_levels_default ON warning_letters;
DROP FUNCTION warning_letters_levels_default();
ALTER TABLE warning_letters DROP CONSTRAINT warning_letters_levels_covered,
    DROP COLUMN sent_level, DROP COLUMN sent_to_parent_by, DROP COLUMN sent_to_parent_at,
    DROP COLUMN total_fallen_at, DROP COLUMN levels_covered;
DROP INDEX point_audit_student_id_idx;
CREATE INDEX point_audit_student_idx ON point_audit (student_id, at DESC);
CREATE INDEX point_audit_at_idx ON point_audit (at DESC);
DELETE FROM point_audit WHERE action = 'correct';
ALTER TABLE point_audit DROP CONSTRAINT point_audit_action_check;
ALTER TABLE point_audit ADD CONSTRAINT point_audit_action_check
    CHECK (action IN ('record', 'delete', 'update', 'auto_record', 'auto_update', 'auto_delete'));
