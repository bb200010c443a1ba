-- +goose Up
-- Parent messaging (docs/parent-messaging.md). A message is queued in the
-- same transaction as the violation, letter or summons that caused it, and
-- sent by a worker that takes due rows with FOR UPDATE SKIP LOCKED and
-- keeps the row locked while it talks to the gateway: a crash rolls the
-- claim back and the message is due again; two workers never hold one row.
CREATE TABLE parent_messages (
    id                 bigserial PRIMARY KEY,
    student_id         bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    event              text NOT NULL CHECK (event IN ('violation', 'warning_letter', 'summons')),
    violation_id       bigint REFERENCES violations(id) ON DELETE SET NULL,
    letter_id          bigint REFERENCES warning_letters(id) ON DELETE SET NULL,
    handling_id        bigint REFERENCES handlings(id) ON DELETE SET NULL,
    -- the parent as the student row said when the message was queued (a
    -- retry re-reads the student's current phone)
    parent_name        text NOT NULL DEFAULT '',
    phone_raw          text NOT NULL DEFAULT '',
    -- normalised international digits (628…), '' when missing or invalid
    phone              text NOT NULL DEFAULT '',
    body               text NOT NULL CHECK (length(body) <= 4000),
    -- skipped: no usable phone (skip_reason no_phone | invalid_phone)
    status             text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'cancelled', 'skipped')),
    skip_reason        text NOT NULL DEFAULT '',
    attempts           integer NOT NULL DEFAULT 0,
    next_attempt_at    timestamptz NOT NULL DEFAULT now(),
    -- the last answer: outcome sent | permanent | temporary | rate_limited
    gateway            text NOT NULL DEFAULT '',
    gateway_message_id text NOT NULL DEFAULT '',
    last_outcome       text NOT NULL DEFAULT '',
    last_http_status   integer,
    last_answer        text NOT NULL DEFAULT '',
    created_by         bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    sent_at            timestamptz,
    cancelled_by       bigint REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX parent_messages_due_idx ON parent_messages (next_attempt_at, id) WHERE status = 'queued';
CREATE INDEX parent_messages_student_idx ON parent_messages (student_id, id DESC);
CREATE INDEX parent_messages_status_idx ON parent_messages (status, id DESC);
-- One message per event and source row: a hook run twice cannot queue twice.
CREATE UNIQUE INDEX parent_messages_violation_key ON parent_messages (violation_id) WHERE event = 'violation' AND violation_id IS NOT NULL;
CREATE UNIQUE INDEX parent_messages_letter_key ON parent_messages (letter_id) WHERE event = 'warning_letter' AND letter_id IS NOT NULL;
CREATE UNIQUE INDEX parent_messages_handling_key ON parent_messages (handling_id) WHERE event = 'summons' AND handling_id IS NOT NULL;

-- Every answer the gateway gave, for the delivery log's detail.
CREATE TABLE parent_message_attempts (
    id           bigserial PRIMARY KEY,
    message_id   bigint NOT NULL REFERENCES parent_messages(id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL DEFAULT now(),
    duration_ms  integer NOT NULL DEFAULT 0,
    gateway      text NOT NULL DEFAULT '',
    outcome      text NOT NULL,
    http_status  integer,
    answer       text NOT NULL DEFAULT ''
);
CREATE INDEX parent_message_attempts_message_idx ON parent_message_attempts (message_id, id);

-- One row shared by every replica: a rate-limit answer pauses all workers.
CREATE TABLE messaging_state (
    id           boolean PRIMARY KEY DEFAULT true CHECK (id),
    paused_until timestamptz,
    pause_reason text NOT NULL DEFAULT ''
);
INSERT INTO messaging_state DEFAULT VALUES;

-- Parent contact edited by staff survives the next student sync: the sync
-- then only updates synced_parent_* (shown beside the edit), until staff
-- switch the student back to the student-affairs values.
ALTER TABLE students
    ADD COLUMN parent_contact_source text NOT NULL DEFAULT 'sync' CHECK (parent_contact_source IN ('sync', 'staff')),
    ADD COLUMN synced_parent_name text NOT NULL DEFAULT '',
    ADD COLUMN synced_parent_phone text NOT NULL DEFAULT '';
UPDATE students SET synced_parent_name = parent_name, synced_parent_phone = parent_phone;

-- A handling of a type that summons the parent queues the summons message.
ALTER TABLE handling_types ADD COLUMN summons_parent boolean NOT NULL DEFAULT false;
UPDATE handling_types SET summons_parent = true WHERE lower(name) LIKE '%panggil%orang tua%';

-- +goose Down
ALTER TABLE handling_types DROP COLUMN summons_parent;
ALTER TABLE students DROP COLUMN synced_parent_phone, DROP COLUMN synced_parent_name, DROP COLUMN parent_contact_source;
DROP TABLE messaging_state;
DROP TABLE parent_message_attempts;
DROP TABLE parent_messages;
