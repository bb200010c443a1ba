-- +goose Up
-- A case session may name how the school handled it, from the same
-- handling types the violations' handlings use (master data under the
-- violation types). Optional: the sessions held before stay as they are.
-- The name is kept with the session, so a type renamed or deleted later
-- (the violation-types reset deletes them all) leaves the record readable;
-- the link is then cleared, never the session.
ALTER TABLE case_sessions
    ADD COLUMN handling_type_id bigint REFERENCES handling_types(id) ON DELETE SET NULL,
    ADD COLUMN handling_type_name text NOT NULL DEFAULT '';
CREATE INDEX case_sessions_handling_type_idx ON case_sessions (handling_type_id) WHERE handling_type_id IS NOT NULL;

-- +goose Down
DROP INDEX case_sessions_handling_type_idx;
ALTER TABLE case_sessions DROP COLUMN handling_type_name, DROP COLUMN handling_type_id;
