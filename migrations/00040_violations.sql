-- +goose Up
-- Violations, their evidence photos, handling (follow-up) records with
-- participants, warning letters (SP) and the point audit. See
-- docs/violations.md for the rules these tables carry.

CREATE TABLE violations (
    id                bigserial PRIMARY KEY,
    student_id        bigint NOT NULL REFERENCES students(id) ON DELETE RESTRICT,
    -- the student's class as it was that day: promotions never move old
    -- violations; the name is kept too, for when the class is renamed or
    -- deleted
    class_id          bigint REFERENCES classes(id) ON DELETE SET NULL,
    class_name        text NOT NULL DEFAULT '',
    -- no cascade: a type in use cannot be deleted (the API offers to
    -- deactivate it instead)
    violation_type_id bigint NOT NULL REFERENCES violation_types(id) ON DELETE RESTRICT,
    occurred_at       timestamptz NOT NULL,
    -- the Asia/Jakarta calendar day of occurred_at (reports, academic year)
    occurred_on       date NOT NULL,
    -- copied from the type when recorded; later type edits never rewrite it
    points            integer NOT NULL CHECK (points >= 0 AND points <= 100000),
    sanction          text NOT NULL DEFAULT '' CHECK (length(sanction) <= 1000),
    location          text NOT NULL DEFAULT '' CHECK (length(location) <= 200),
    description       text NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
    -- null: created by the journal sync (spec); the form's recorder otherwise
    recorded_by       bigint REFERENCES users(id) ON DELETE SET NULL,
    recorded_by_name  text NOT NULL DEFAULT '',
    -- manual: the violation form; attendance: derived from attendance (the
    -- attendance issue fills in its own columns)
    source            text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'attendance')),
    verified_by       bigint REFERENCES users(id) ON DELETE SET NULL,
    verified_at       timestamptz,
    handling_status   text NOT NULL DEFAULT 'unhandled' CHECK (handling_status IN ('unhandled', 'in_progress', 'resolved')),
    handled_at        timestamptz,
    handled_by        bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX violations_student_idx ON violations (student_id, occurred_on);
CREATE INDEX violations_occurred_idx ON violations (occurred_on DESC, id DESC);
CREATE INDEX violations_class_idx ON violations (class_id, occurred_on);
CREATE INDEX violations_type_idx ON violations (violation_type_id);
CREATE INDEX violations_status_idx ON violations (handling_status, occurred_on);

-- Evidence photos live in PostgreSQL so every replica and every backup has
-- them. Stored re-encoded (no EXIF), with a small thumbnail for lists.
CREATE TABLE violation_photos (
    id           bigserial PRIMARY KEY,
    violation_id bigint NOT NULL REFERENCES violations(id) ON DELETE CASCADE,
    position     smallint NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND 4),
    content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
    width        integer NOT NULL,
    height       integer NOT NULL,
    image        bytea NOT NULL,
    thumbnail    bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX violation_photos_violation_idx ON violation_photos (violation_id, position);

CREATE TABLE handlings (
    id               bigserial PRIMARY KEY,
    violation_id     bigint NOT NULL REFERENCES violations(id) ON DELETE CASCADE,
    handling_type_id bigint NOT NULL REFERENCES handling_types(id) ON DELETE RESTRICT,
    handled_on       date NOT NULL,
    notes            text NOT NULL DEFAULT '' CHECK (length(notes) <= 5000),
    follow_up_on     date,
    created_by       bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name  text NOT NULL DEFAULT '',
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX handlings_violation_idx ON handlings (violation_id, handled_on);
CREATE INDEX handlings_follow_up_idx ON handlings (follow_up_on) WHERE follow_up_on IS NOT NULL;

-- A participant is a Tatib user or a free name (a parent, a witness), each
-- with their role in the meeting.
CREATE TABLE handling_participants (
    id          bigserial PRIMARY KEY,
    handling_id bigint NOT NULL REFERENCES handlings(id) ON DELETE CASCADE,
    user_id     bigint REFERENCES users(id) ON DELETE SET NULL,
    name        text NOT NULL CHECK (name <> '' AND length(name) <= 150),
    role        text NOT NULL CHECK (role <> '' AND length(role) <= 50)
);
CREATE INDEX handling_participants_handling_idx ON handling_participants (handling_id);

-- Warning letters. The level and its threshold are copied when issued (the
-- threshold list may be replaced later). At most one live letter per
-- student, academic year and level: the unique index is what makes
-- "never twice" hold under concurrent recording.
CREATE TABLE warning_letters (
    id                 bigserial PRIMARY KEY,
    student_id         bigint NOT NULL REFERENCES students(id) ON DELETE RESTRICT,
    class_id           bigint REFERENCES classes(id) ON DELETE SET NULL,
    class_name         text NOT NULL DEFAULT '',
    level              integer NOT NULL CHECK (level >= 1),
    name               text NOT NULL,
    min_points         integer NOT NULL,
    -- first day of the academic year the points were counted in
    academic_year_start date NOT NULL,
    points             integer NOT NULL,
    -- the violation whose recording crossed the threshold
    violation_id       bigint REFERENCES violations(id) ON DELETE SET NULL,
    status             text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'printed', 'signed', 'delivered', 'withdrawn')),
    issued_at          timestamptz NOT NULL DEFAULT now(),
    printed_at         timestamptz,
    printed_by         bigint REFERENCES users(id) ON DELETE SET NULL,
    signed_at          timestamptz,
    signed_by          bigint REFERENCES users(id) ON DELETE SET NULL,
    delivered_at       timestamptz,
    delivered_by       bigint REFERENCES users(id) ON DELETE SET NULL,
    withdrawn_at       timestamptz,
    withdrawn_reason   text NOT NULL DEFAULT '',
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX warning_letters_live_key ON warning_letters (student_id, academic_year_start, level) WHERE status <> 'withdrawn';
CREATE INDEX warning_letters_status_idx ON warning_letters (status, issued_at DESC);
CREATE INDEX warning_letters_class_idx ON warning_letters (class_id, issued_at DESC);

-- The letter's status history: who moved it, when.
CREATE TABLE warning_letter_events (
    id         bigserial PRIMARY KEY,
    letter_id  bigint NOT NULL REFERENCES warning_letters(id) ON DELETE CASCADE,
    status     text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now(),
    actor_id   bigint REFERENCES users(id) ON DELETE SET NULL,
    actor_name text NOT NULL DEFAULT ''
);
CREATE INDEX warning_letter_events_letter_idx ON warning_letter_events (letter_id, at);

-- Every change to a student's points: record, delete, automatic update.
-- violation_id has no foreign key: the entry outlives a deleted violation.
CREATE TABLE point_audit (
    id            bigserial PRIMARY KEY,
    at            timestamptz NOT NULL DEFAULT now(),
    student_id    bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    violation_id  bigint,
    action        text NOT NULL CHECK (action IN ('record', 'delete', 'update', 'auto_record', 'auto_update', 'auto_delete')),
    points_before integer NOT NULL,
    points_after  integer NOT NULL,
    actor_id      bigint REFERENCES users(id) ON DELETE SET NULL,
    actor_name    text NOT NULL DEFAULT '',
    address       text NOT NULL DEFAULT '',
    details       jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX point_audit_student_idx ON point_audit (student_id, at DESC);
CREATE INDEX point_audit_at_idx ON point_audit (at DESC);

-- +goose Down
DROP TABLE point_audit;
DROP TABLE warning_letter_events;
DROP TABLE warning_letters;
DROP TABLE handling_participants;
DROP TABLE handlings;
DROP TABLE violation_photos;
DROP TABLE violations;
