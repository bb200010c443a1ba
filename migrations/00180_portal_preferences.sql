-- +goose Up
-- Per-guardian notification preferences and the daily digest (issue 26,
-- docs/portal.md "Preferences and the daily digest"). A guardian chooses,
-- per kind of message, immediate (the default when no row), digest or off.
-- Warning letters and summons are the school's formal notices: never off.
-- The "belum hadir" notice is opt-in per guardian (off when no row) and
-- has no digest (it matters only that morning). Sign-in codes and the
-- digest itself are not kinds: they always go.
CREATE TABLE guardian_notification_prefs (
    guardian_id bigint NOT NULL REFERENCES guardians(id) ON DELETE CASCADE,
    kind        text NOT NULL CHECK (kind IN ('violation', 'attendance', 'warning_letter', 'summons', 'achievement', 'excuse', 'absent_notice')),
    mode        text NOT NULL CHECK (mode IN ('immediate', 'digest', 'off')),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (guardian_id, kind),
    CHECK (NOT (kind IN ('warning_letter', 'summons') AND mode = 'off')),
    CHECK (NOT (kind = 'absent_notice' AND mode = 'digest'))
);

-- The worker holds a message whose guardian wants it in the digest
-- (status skipped, skip_reason digest); the digest names the messages it
-- carried (digest_id). One digest per guardian and Jakarta day
-- (notice_day), whichever replica builds it: the unique index decides.
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code', 'excuse', 'digest'));
ALTER TABLE parent_messages
    ADD COLUMN notice_day date,
    ADD COLUMN digest_id bigint REFERENCES parent_messages(id) ON DELETE SET NULL;
CREATE UNIQUE INDEX parent_messages_digest_key ON parent_messages (guardian_id, notice_day) WHERE event = 'digest';
CREATE INDEX parent_messages_held_idx ON parent_messages (phone, id) WHERE skip_reason = 'digest' AND digest_id IS NULL;

-- +goose Down
DELETE FROM parent_messages WHERE event = 'digest';
DROP INDEX parent_messages_held_idx;
DROP INDEX parent_messages_digest_key;
ALTER TABLE parent_messages DROP COLUMN digest_id, DROP COLUMN notice_day;
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code', 'excuse'));
DROP TABLE guardian_notification_prefs;
