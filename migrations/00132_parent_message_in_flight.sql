-- +goose Up
-- Issue 25: a send is marked in flight before the gateway call and the
-- gateway's message id is written the moment it answers, so a process
-- killed mid-send does not send the message twice when the gateway had
-- taken it (docs/parent-messaging.md, "Delivery and retries").
ALTER TABLE parent_messages ADD COLUMN sending_since timestamptz;

-- +goose Down
ALTER TABLE parent_messages DROP COLUMN sending_since;
