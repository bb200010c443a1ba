-- +goose Up
-- A person's entry beats a machine's (issue 22, docs/attendance.md "Who set
-- a cell"): every attendance cell says who set it last; a journal push
-- keeps a cell a person set and remembers what it sent instead; pushes log
-- a sample of the cells they kept; letters issued or withdrawn by
-- attendance are notified.

-- Who set the cell last: user (the class form), journal (E-Jurnal), kiosk
-- (a Face-ID scan, or its confirmation), excuse (an approved parent's
-- excuse). user and excuse are a person's: no machine overwrites them.
-- from_journal stays, kept equal to set_by = 'journal', for its readers.
--
-- Added with the default 'journal' so existing rows need no rewrite (the
-- value is stored once in the catalogue), then the form's and the kiosk's
-- rows, a minority, are set; new rows always name their origin (ApplyTx),
-- and 'user' is only the default of a hand-written INSERT: a row of
-- unknown origin is treated as a person's, never overwritten by a machine.
ALTER TABLE attendance
    ADD COLUMN set_by text NOT NULL DEFAULT 'journal' CHECK (set_by IN ('user', 'journal', 'kiosk', 'excuse'));
UPDATE attendance SET set_by = 'user' WHERE NOT from_journal;
-- A kiosk's rows: the first hour of a day a matched (or confirmed) scan
-- marked H or T, not changed by a person since.
UPDATE attendance a SET set_by = 'kiosk'
FROM face_scans f
WHERE NOT a.from_journal AND a.lesson_hour = 1 AND f.attendance IN ('H', 'T') AND a.status = f.attendance
  AND COALESCE(f.resolved_student_id, f.student_id) = a.student_id
  AND (f.scanned_at AT TIME ZONE 'Asia/Jakarta')::date = a.date
  AND (a.updated_by IS NULL OR a.updated_by = f.resolved_by);
ALTER TABLE attendance ALTER COLUMN set_by SET DEFAULT 'user';

-- A journal push that met a person's cell with another status: what the
-- journal sent, kept for the class form's notice ("the journal sent A for
-- hours 1-3; you entered S: keep / use the journal's") until a person
-- decides, saves the cell again, or a later push sends what is stored.
-- The person's status, name and time are the cell's own.
CREATE TABLE attendance_journal_conflicts (
    student_id     bigint NOT NULL,
    date           date NOT NULL,
    lesson_hour    smallint NOT NULL,
    journal_status text NOT NULL CHECK (journal_status IN ('H', 'S', 'I', 'A', 'T')),
    pushed_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (student_id, date, lesson_hour),
    FOREIGN KEY (student_id, date, lesson_hour) REFERENCES attendance (student_id, date, lesson_hour) ON DELETE CASCADE
);

-- The first cells a push kept for a person (student, hour, both statuses,
-- who and when), for Settings -> Integrations; the count is in result.
ALTER TABLE journal_pushes ADD COLUMN kept jsonb NOT NULL DEFAULT '[]'::jsonb;

-- letter: a warning letter issued or withdrawn by an attendance save or
-- push, for the counselors and the homeroom teacher.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('violation', 'attendance', 'letter'));

-- +goose Down
DELETE FROM notifications WHERE kind = 'letter';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('violation', 'attendance'));
ALTER TABLE journal_pushes DROP COLUMN kept;
DROP TABLE attendance_journal_conflicts;
ALTER TABLE attendance DROP COLUMN set_by;
