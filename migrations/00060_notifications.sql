-- +goose Up
-- Notifications of recorded violations, one row per recipient. Texts are
-- not stored: kind + params are rendered from the server catalogue (area
-- notify) in the reader's language. See docs/notifications.md.
CREATE TABLE notifications (
    id           bigserial PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- violation | attendance
    kind         text NOT NULL CHECK (kind IN ('violation', 'attendance')),
    params       jsonb NOT NULL DEFAULT '{}',
    url          text NOT NULL,
    -- no foreign key: the violation may be deleted later, the
    -- notification stays
    violation_id bigint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    read_at      timestamptz
);

CREATE INDEX notifications_user_id_idx ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- +goose Down
DROP TABLE notifications;
