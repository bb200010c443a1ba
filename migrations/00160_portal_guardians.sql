-- +goose Up
-- The family portal, part 1 (docs/portal.md): guardians, their children,
-- one-time sign-in codes and portal sessions, apart from staff sessions.

-- A guardian is a phone (normalised: international digits, server/internal/phone)
-- and a name. consent_* record the activation (UU 27/2022 Pasal 25): the
-- guardian's own act, when and through which channel; withdrawn_at closes the
-- account and stops messages to that phone until the guardian activates again.
CREATE TABLE guardians (
    id              bigserial PRIMARY KEY,
    name            text NOT NULL CHECK (length(name) <= 200),
    phone           text NOT NULL UNIQUE CHECK (phone ~ '^[1-9][0-9]{7,14}$'),
    consent_at      timestamptz,
    consent_channel text NOT NULL DEFAULT '' CHECK (consent_channel IN ('', 'whatsapp_code', 'activation_code')),
    withdrawn_at    timestamptz,
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- A student has at most three guardians: each link takes one of three slots,
-- and (student_id, slot) is unique, so two racing inserts for the last slot
-- cannot both commit whatever the isolation level.
CREATE TABLE guardian_students (
    guardian_id bigint NOT NULL REFERENCES guardians(id) ON DELETE CASCADE,
    student_id  bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    slot        smallint NOT NULL CHECK (slot BETWEEN 1 AND 3),
    relation    text NOT NULL DEFAULT 'lainnya' CHECK (relation IN ('ayah', 'ibu', 'wali', 'lainnya')),
    -- verified: the guardian sees the child; pending: a self-registration
    -- waiting for the homeroom teacher or an admin.
    status      text NOT NULL DEFAULT 'verified' CHECK (status IN ('verified', 'pending')),
    source      text NOT NULL CHECK (source IN ('sync', 'staff', 'self')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (guardian_id, student_id),
    UNIQUE (student_id, slot)
);
CREATE INDEX guardian_students_student_idx ON guardian_students (student_id);

-- Portal sessions: their own table and cookie; a staff token is never one.
CREATE TABLE portal_sessions (
    token_hash   bytea PRIMARY KEY,
    guardian_id  bigint NOT NULL REFERENCES guardians(id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    user_agent   text NOT NULL DEFAULT '',
    address      text NOT NULL DEFAULT ''
);
CREATE INDEX portal_sessions_guardian_idx ON portal_sessions (guardian_id);

-- Every code request, known phone or not (the throttle counts them all, so
-- it tells nothing about who is known), and the codes themselves: only a
-- hash is kept. kind activation: printed by staff, valid longer.
CREATE TABLE portal_codes (
    id          bigserial PRIMARY KEY,
    phone       text NOT NULL,
    address     text NOT NULL DEFAULT '',
    guardian_id bigint REFERENCES guardians(id) ON DELETE CASCADE,
    kind        text NOT NULL DEFAULT 'whatsapp' CHECK (kind IN ('whatsapp', 'activation')),
    code_hash   bytea,
    tries       integer NOT NULL DEFAULT 0,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    created_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_codes_phone_idx ON portal_codes (phone, created_at DESC);
CREATE INDEX portal_codes_address_idx ON portal_codes (address, created_at DESC);

-- The code goes through the school's outbox; it names its guardian.
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code'));
ALTER TABLE parent_messages ADD COLUMN guardian_id bigint REFERENCES guardians(id) ON DELETE SET NULL;

-- +goose Down
DELETE FROM parent_messages WHERE event = 'portal_code';
ALTER TABLE parent_messages DROP COLUMN guardian_id;
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement'));
DROP TABLE portal_codes;
DROP TABLE portal_sessions;
DROP TABLE guardian_students;
DROP TABLE guardians;
