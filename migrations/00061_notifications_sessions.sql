-- +goose Up
-- Ended sessions are announced on tatib_sessions so every replica closes
-- the WebSockets they opened at once (sign-out, deactivation, password
-- reset, a deleted user, pruning): one statement-level trigger covers
-- every path that deletes sessions. The payload is the users' ids, comma
-- separated, or * when too many to list (8 kB cap): re-check every socket.
-- See docs/notifications.md.
-- +goose StatementBegin
CREATE FUNCTION sessions_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tatib_sessions',
        CASE WHEN count(DISTINCT user_id) > 200 THEN '*' ELSE string_agg(DISTINCT user_id::text, ',') END)
    FROM gone HAVING count(*) > 0;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER sessions_ended AFTER DELETE ON sessions
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION sessions_ended_notify();

-- +goose Down
DROP TRIGGER sessions_ended ON sessions;
DROP FUNCTION sessions_ended_notify();
