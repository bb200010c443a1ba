-- +goose Up
-- The "belum hadir" notice (issue 26, docs/portal.md): a guardian who
-- asked for it is told when their child has no H or T by the school's set
-- time on a school day. Once per guardian, child and Jakarta day
-- (notice_day), whichever replica queues it.
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code', 'excuse', 'digest', 'absent_notice'));
CREATE UNIQUE INDEX parent_messages_absent_notice_key ON parent_messages (guardian_id, student_id, notice_day) WHERE event = 'absent_notice';

-- +goose Down
DELETE FROM parent_messages WHERE event = 'absent_notice';
DROP INDEX parent_messages_absent_notice_key;
ALTER TABLE parent_messages DROP CONSTRAINT parent_messages_event_check;
ALTER TABLE parent_messages ADD CONSTRAINT parent_messages_event_check
    CHECK (event IN ('violation', 'warning_letter', 'summons', 'achievement', 'portal_code', 'excuse', 'digest'));
