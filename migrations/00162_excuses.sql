-- +goose Up
-- The absence loop (docs/portal.md, "Excuses"): a guardian asks, the
-- homeroom teacher or a counselor decides. An approval stores the hours
-- as S or I with set_by = 'excuse' through attendance.ApplyDetailedTx (the
-- cells then beat a later journal A); the request keeps who decided.
CREATE TABLE excuses (
    id              bigserial PRIMARY KEY,
    student_id      bigint NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    guardian_id     bigint REFERENCES guardians(id) ON DELETE SET NULL,
    guardian_name   text NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('sakit', 'izin')),
    date_from       date NOT NULL,
    date_to         date NOT NULL,
    -- NULL: every lesson hour of the days; else some hours of one day
    lesson_hours    smallint[] CHECK (lesson_hours IS NULL OR (cardinality(lesson_hours) BETWEEN 1 AND 16 AND date_from = date_to)),
    reason          text NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'refused')),
    decided_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    decided_by_name text NOT NULL DEFAULT '',
    decided_at      timestamptz,
    refusal_reason  text NOT NULL DEFAULT '' CHECK (length(refusal_reason) <= 500),
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (date_to >= date_from AND date_to - date_from <= 13)
);
CREATE INDEX excuses_student_idx ON excuses (student_id, created_at DESC);
CREATE INDEX excuses_pending_idx ON excuses (created_at) WHERE status = 'pending';

-- The decision goes to the guardian through the outbox.
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code', 'excuse'));
ALTER TABLE parent_messages ADD COLUMN excuse_id bigint REFERENCES excuses(id) ON DELETE SET NULL;
CREATE UNIQUE INDEX parent_messages_excuse_key ON parent_messages (excuse_id) WHERE event = 'excuse' AND excuse_id IS NOT NULL;

-- +goose Down
DELETE FROM parent_messages WHERE event = 'excuse';
DROP INDEX parent_messages_excuse_key;
ALTER TABLE parent_messages DROP COLUMN excuse_id;
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code'));
DROP TABLE excuses;
