-- +goose Up
-- The erasure ledger (docs/data-safety.md, "A restore keeps erasures"):
-- every erasure the product promises — a withdrawn face consent, deleted
-- face data, a revoked kiosk, a removed user, a data reset — written in the
-- erasure's own transaction, so that restoring an older backup can do it
-- again. An entry's key is the same in every copy of the ledger (this
-- table, the file beside the data folder, the database a restore replaces),
-- so each is applied once.
CREATE TABLE erasures (
    id           bigserial PRIMARY KEY,
    key          text NOT NULL UNIQUE CHECK (length(key) BETWEEN 16 AND 64),
    kind         text NOT NULL CHECK (kind IN ('face.consent_withdrawn', 'face.enrolment_deleted', 'kiosk.revoked',
                                               'user.removed', 'data.reset')),
    at           timestamptz NOT NULL DEFAULT now(),
    -- ids only (student_id, consent_id, kiosk_id, user_id) or the reset's
    -- sets: the ledger also lives in a file, which holds nobody's name
    details      jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- when a restore applied it again; null when written as it happened
    reapplied_at timestamptz
);

-- Which database's ledger this is: random, made with the first erasure
-- (not here, so databases cloned from a migrated template differ), carried
-- by every backup. The file beside the data folder may hold the ledgers of
-- several databases (a developer's, a test's); a restore applies only its
-- own.
CREATE TABLE erasure_ledger (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    lineage text NOT NULL CHECK (length(lineage) BETWEEN 16 AND 64)
);

-- +goose Down
DROP TABLE erasure_ledger;
DROP TABLE erasures;
