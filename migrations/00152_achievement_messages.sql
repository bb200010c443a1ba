-- +goose Up
-- A parent message when a counselor verifies an achievement (issue 28):
-- one per achievement and student, switchable like the other events.
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement'));
ALTER TABLE parent_messages ADD COLUMN achievement_id bigint REFERENCES achievements(id) ON DELETE SET NULL;
CREATE UNIQUE INDEX parent_messages_achievement_key ON parent_messages (achievement_id, student_id) WHERE event = 'achievement';

-- +goose Down
DELETE FROM parent_messages WHERE event = 'achievement';
DROP INDEX parent_messages_achievement_key;
ALTER TABLE parent_messages DROP COLUMN achievement_id;
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons'));
