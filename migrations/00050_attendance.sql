-- +goose Up
-- Attendance per student, date and lesson hour; the per-day counts every
-- recap, calendar and automatic violation reads; the journal's pushes and
-- the entries it sent for students Tatib does not know yet. See
-- docs/attendance.md.

-- One row per (student, date, lesson hour). "belum" (not yet filled) is
-- the absence of a row: never stored. Kept narrow: a school year is about
-- 3 million rows.
CREATE TABLE attendance (
    student_id   bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    -- the Asia/Jakarta school day
    date         date NOT NULL,
    lesson_hour  smallint NOT NULL CHECK (lesson_hour BETWEEN 1 AND 16),
    status       text NOT NULL CHECK (status IN ('H', 'S', 'I', 'A', 'T')),
    -- true: the journal (E-Jurnal) pushed it; false: the class form
    from_journal boolean NOT NULL,
    -- who saved it last on the form (null for the journal)
    updated_by   bigint REFERENCES users(id) ON DELETE SET NULL,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    notes        text CHECK (length(notes) <= 500),
    PRIMARY KEY (student_id, date, lesson_hour)
);

-- The hours of each status per student and day, kept in step with
-- attendance in the same transaction as every change. A day with no
-- attendance row has no row here.
CREATE TABLE attendance_days (
    student_id bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    date       date NOT NULL,
    h          smallint NOT NULL DEFAULT 0,
    s          smallint NOT NULL DEFAULT 0,
    i          smallint NOT NULL DEFAULT 0,
    a          smallint NOT NULL DEFAULT 0,
    t          smallint NOT NULL DEFAULT 0,
    PRIMARY KEY (student_id, date)
);
CREATE INDEX attendance_days_date_idx ON attendance_days (date, student_id);

-- Automatic violations derived from attendance: at most one per student,
-- day and kind (the unique index is what makes that hold under concurrent
-- pushes). auto_hours is the number of A (or T) hours it was computed
-- from; auto_unbacked marks one kept because it was already handled when
-- its day lost its last A (or T) hour.
ALTER TABLE violations
    ADD COLUMN auto_kind     text CHECK (auto_kind IN ('alpha', 'late')),
    ADD COLUMN auto_hours    smallint,
    ADD COLUMN auto_unbacked boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX violations_auto_key ON violations (student_id, occurred_on, auto_kind) WHERE auto_kind IS NOT NULL;

-- Every push the journal made (accepted, refused or unauthorised), for
-- Settings -> Integrations. Pruned to the newest few thousand.
CREATE TABLE journal_pushes (
    id           bigserial PRIMARY KEY,
    received_at  timestamptz NOT NULL DEFAULT now(),
    address      text NOT NULL DEFAULT '',
    outcome      text NOT NULL CHECK (outcome IN ('applied', 'rejected', 'unauthorized', 'too_large', 'failed')),
    entries      integer NOT NULL DEFAULT 0,
    -- the counts answered to the journal (created, updated, ...)
    result       jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- the catalogue code of what went wrong, and the first bad entries
    error_code   text NOT NULL DEFAULT '',
    error_params jsonb NOT NULL DEFAULT '{}'::jsonb,
    errors       jsonb NOT NULL DEFAULT '[]'::jsonb,
    duration_ms  integer NOT NULL DEFAULT 0
);
CREATE INDEX journal_pushes_received_idx ON journal_pushes (received_at DESC, id DESC);

-- Entries the journal sent for a student Tatib does not know (yet): parked,
-- applied and removed by the next student sync that brings the student in.
-- The newest push of a key wins, as it would for a known student.
CREATE TABLE attendance_unmatched (
    source_student_id bigint NOT NULL,
    date              date NOT NULL,
    lesson_hour       smallint NOT NULL CHECK (lesson_hour BETWEEN 1 AND 16),
    status            text NOT NULL CHECK (status IN ('H', 'S', 'I', 'A', 'T')),
    notes             text CHECK (length(notes) <= 500),
    reason            text NOT NULL DEFAULT 'unknown_student',
    push_id           bigint REFERENCES journal_pushes(id) ON DELETE SET NULL,
    received_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source_student_id, date, lesson_hour)
);
CREATE INDEX attendance_unmatched_received_idx ON attendance_unmatched (received_at DESC);

-- +goose Down
DROP TABLE attendance_unmatched;
DROP TABLE journal_pushes;
DROP INDEX violations_auto_key;
ALTER TABLE violations DROP COLUMN auto_unbacked, DROP COLUMN auto_hours, DROP COLUMN auto_kind;
DROP TABLE attendance_days;
DROP TABLE attendance;
