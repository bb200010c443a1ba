-- +goose Up
-- Backups (docs/data-safety.md). The dump itself goes to the admin; Tatib
-- keeps only the record of it, so Settings can say when the last one was
-- made.
CREATE TABLE backups (
    id              bigserial PRIMARY KEY,
    started_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    status          text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
    size_bytes      bigint NOT NULL DEFAULT 0,
    sha256          text NOT NULL DEFAULT '',
    filename        text NOT NULL DEFAULT '',
    -- browser | desktop | cli
    via             text NOT NULL DEFAULT 'browser',
    error           text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name text NOT NULL DEFAULT ''
);
CREATE INDEX backups_started_idx ON backups (started_at DESC);

-- +goose Down
DROP TABLE backups;
