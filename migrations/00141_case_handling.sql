-- +goose Up
-- Handling inside a case (docs/cases.md): sessions, restorative agreements
-- (kesepakatan pemulihan) with an item per party, recovery actions for the
-- victim, and violations recorded from the case page linked to it.

ALTER TABLE violations ADD COLUMN case_id bigint REFERENCES cases(id) ON DELETE SET NULL;
CREATE INDEX violations_case_idx ON violations (case_id) WHERE case_id IS NOT NULL;

-- A meeting: who (the case's participants met, and the staff present) met
-- when, and what was said. Notes: the team and admins only.
CREATE TABLE case_sessions (
    id              bigserial PRIMARY KEY,
    case_id         bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    held_at         timestamptz NOT NULL,
    participant_ids bigint[] NOT NULL DEFAULT '{}',
    staff_ids       bigint[] NOT NULL DEFAULT '{}',
    notes           text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_sessions_case_idx ON case_sessions (case_id, held_at);

CREATE TABLE case_agreements (
    id              bigserial PRIMARY KEY,
    case_id         bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    agreed_on       date NOT NULL,
    notes           text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_agreements_case_idx ON case_agreements (case_id);

-- One commitment of one party: what, by when; later done or not done and
-- who checked.
CREATE TABLE case_agreement_items (
    id              bigserial PRIMARY KEY,
    agreement_id    bigint NOT NULL REFERENCES case_agreements(id) ON DELETE CASCADE,
    participant_id  bigint NOT NULL REFERENCES case_participants(id) ON DELETE CASCADE,
    action          text NOT NULL,
    due_on          date NOT NULL,
    status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'not_done')),
    checked_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    checked_by_name text NOT NULL DEFAULT '',
    checked_at      timestamptz,
    check_notes     text NOT NULL DEFAULT ''
);
CREATE INDEX case_agreement_items_agreement_idx ON case_agreement_items (agreement_id);

-- Recovery for the victim: counselling, a psychologist, a class change, ...
CREATE TABLE case_recovery_actions (
    id              bigserial PRIMARY KEY,
    case_id         bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    participant_id  bigint NOT NULL REFERENCES case_participants(id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('counselling', 'psychologist', 'class_change', 'other')),
    description     text NOT NULL DEFAULT '',
    planned_on      date NOT NULL,
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_recovery_actions_case_idx ON case_recovery_actions (case_id);

-- +goose Down
DROP TABLE case_recovery_actions;
DROP TABLE case_agreement_items;
DROP TABLE case_agreements;
DROP TABLE case_sessions;
ALTER TABLE violations DROP COLUMN case_id;
