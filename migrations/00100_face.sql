-- +goose Up
-- Face-ID (docs/face-id.md): a parent's consent per student, face
-- embeddings (never images), gate kiosks with device tokens, one-time
-- liveness challenges, the scan log with its confirmation queue, and the
-- school's face settings. Biometric data of minors (UU 27/2022): nothing
-- is enrolled without an active consent; withdrawing it deletes the
-- embeddings in the same transaction; a student inactive for longer than
-- the retention period loses them automatically.

-- When a student stopped being active: the retention sweep's clock. Set
-- by the trigger whenever active turns false, cleared when it turns true.
ALTER TABLE students ADD COLUMN inactive_since timestamptz;
UPDATE students SET inactive_since = now() WHERE NOT active;

-- +goose StatementBegin
CREATE FUNCTION students_inactive_since() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.active THEN
        NEW.inactive_since := NULL;
    ELSIF TG_OP = 'INSERT' OR OLD.active THEN
        NEW.inactive_since := now();
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER students_inactive_since BEFORE INSERT OR UPDATE OF active ON students
    FOR EACH ROW EXECUTE FUNCTION students_inactive_since();

-- One row per consent given; withdrawn ones stay as the record of it.
CREATE TABLE face_consents (
    id               bigserial PRIMARY KEY,
    student_id       bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    guardian_name    text NOT NULL CHECK (length(guardian_name) BETWEEN 1 AND 120),
    -- father | mother | guardian | other
    relationship     text NOT NULL CHECK (relationship IN ('father', 'mother', 'guardian', 'other')),
    -- paper (a signed form) | digital (a signed file or message) | in_person
    method           text NOT NULL CHECK (method IN ('paper', 'digital', 'in_person')),
    given_on         date NOT NULL,
    -- the form's number or where the signed copy is kept
    reference        text NOT NULL DEFAULT '' CHECK (length(reference) <= 200),
    recorded_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    recorded_by_name text NOT NULL DEFAULT '',
    recorded_at      timestamptz NOT NULL DEFAULT now(),
    withdrawn_at     timestamptz,
    withdrawn_by     bigint REFERENCES users(id) ON DELETE SET NULL,
    withdrawn_by_name text NOT NULL DEFAULT '',
    withdrawal_reason text NOT NULL DEFAULT '' CHECK (length(withdrawal_reason) <= 500)
);
CREATE UNIQUE INDEX face_consents_one_active ON face_consents (student_id) WHERE withdrawn_at IS NULL;
CREATE INDEX face_consents_student_idx ON face_consents (student_id, recorded_at DESC);

-- The embeddings: little-endian float32, dim of them, from model. No
-- image is stored anywhere.
CREATE TABLE face_embeddings (
    id          bigserial PRIMARY KEY,
    student_id  bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    consent_id  bigint NOT NULL REFERENCES face_consents(id) ON DELETE CASCADE,
    model       text NOT NULL CHECK (length(model) BETWEEN 1 AND 80),
    dim         int NOT NULL CHECK (dim BETWEEN 16 AND 4096),
    vec         bytea NOT NULL CHECK (length(vec) = dim * 4),
    created_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX face_embeddings_student_idx ON face_embeddings (student_id);

-- Bumped by every change to face_embeddings: a replica's in-memory index
-- reloads when the version it holds is not this one.
CREATE TABLE face_index_state (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    version bigint NOT NULL DEFAULT 0
);
INSERT INTO face_index_state DEFAULT VALUES;
-- +goose StatementBegin
CREATE FUNCTION face_index_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE face_index_state SET version = version + 1;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER face_embeddings_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON face_embeddings
    FOR EACH STATEMENT EXECUTE FUNCTION face_index_bump();

-- Gate kiosks: a device token (only its SHA-256 is kept) that can ask
-- for a challenge and send a scan, nothing else.
CREATE TABLE kiosks (
    id              bigserial PRIMARY KEY,
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    token_hash      bytea NOT NULL UNIQUE,
    -- the token's first characters, to tell kiosks apart on screen
    token_hint      text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_seen_at    timestamptz,
    revoked_at      timestamptz
);

-- One-time liveness challenges a kiosk asked for.
CREATE TABLE face_challenges (
    id         text PRIMARY KEY CHECK (length(id) BETWEEN 16 AND 64),
    kiosk_id   bigint NOT NULL REFERENCES kiosks(id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('blink', 'turn_left', 'turn_right')),
    issued_at  timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX face_challenges_expiry_idx ON face_challenges (expires_at);

-- Every scan a kiosk sent, whatever came of it.
CREATE TABLE face_scans (
    id                  bigserial PRIMARY KEY,
    kiosk_id            bigint REFERENCES kiosks(id) ON DELETE SET NULL,
    kiosk_name          text NOT NULL DEFAULT '',
    scanned_at          timestamptz NOT NULL DEFAULT now(),
    -- matched | uncertain | unknown | liveness_failed | not_enrolled_model
    outcome             text NOT NULL CHECK (outcome IN ('matched', 'uncertain', 'unknown', 'liveness_failed', 'not_enrolled_model')),
    model               text NOT NULL DEFAULT '',
    student_id          bigint REFERENCES students(id) ON DELETE SET NULL,
    score               real,
    runner_up_id        bigint REFERENCES students(id) ON DELETE SET NULL,
    runner_up_score     real,
    margin              real,
    challenge_kind      text NOT NULL DEFAULT '',
    challenge_passed    boolean NOT NULL DEFAULT false,
    -- H | T | kept (the first hour was already filled) | none
    attendance          text NOT NULL DEFAULT 'none' CHECK (attendance IN ('H', 'T', 'kept', 'none')),
    -- the confirmation queue: uncertain scans a teacher confirms or rejects
    resolution          text CHECK (resolution IN ('confirmed', 'rejected')),
    resolved_student_id bigint REFERENCES students(id) ON DELETE SET NULL,
    resolved_by         bigint REFERENCES users(id) ON DELETE SET NULL,
    resolved_by_name    text NOT NULL DEFAULT '',
    resolved_at         timestamptz
);
CREATE INDEX face_scans_time_idx ON face_scans (scanned_at DESC);
CREATE INDEX face_scans_pending_idx ON face_scans (scanned_at) WHERE outcome = 'uncertain' AND resolution IS NULL;

-- The school's face settings (one row).
CREATE TABLE face_settings (
    id                 boolean PRIMARY KEY DEFAULT true CHECK (id),
    -- arrivals up to start + grace are H for the first lesson hour, later T
    school_start       time NOT NULL DEFAULT '07:00',
    late_grace_minutes int NOT NULL DEFAULT 0 CHECK (late_grace_minutes BETWEEN 0 AND 120),
    -- cosine similarity the best match needs, and its lead over the runner-up
    threshold          real NOT NULL DEFAULT 0.5 CHECK (threshold > 0 AND threshold < 1),
    margin             real NOT NULL DEFAULT 0.08 CHECK (margin >= 0 AND margin < 1),
    -- days after a student became inactive that their embeddings are kept
    retention_days     int NOT NULL DEFAULT 30 CHECK (retention_days BETWEEN 0 AND 365),
    challenges         text[] NOT NULL DEFAULT ARRAY['blink', 'turn_left', 'turn_right'],
    updated_at         timestamptz,
    updated_by         bigint REFERENCES users(id) ON DELETE SET NULL
);
INSERT INTO face_settings DEFAULT VALUES;

-- +goose Down
DROP TABLE face_settings;
DROP TABLE face_scans;
DROP TABLE face_challenges;
DROP TABLE kiosks;
DROP TRIGGER face_embeddings_bump ON face_embeddings;
DROP FUNCTION face_index_bump();
DROP TABLE face_index_state;
DROP TABLE face_embeddings;
DROP TABLE face_consents;
DROP TRIGGER students_inactive_since ON students;
DROP FUNCTION students_inactive_since();
ALTER TABLE students DROP COLUMN inactive_since;
