-- +goose Up
-- Journal pushes refused for their token, apart from the push log so that a
-- flood of them never evicts a real push from it (issue 25): one row per
-- client address and minute, counted, pruned to the newest few hundred.
CREATE TABLE journal_auth_failures (
    id         bigserial PRIMARY KEY,
    address    text NOT NULL,
    minute     timestamptz NOT NULL,
    attempts   integer NOT NULL DEFAULT 1,
    error_code text NOT NULL,
    last_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (address, minute)
);
CREATE INDEX journal_auth_failures_last_idx ON journal_auth_failures (last_at DESC);

-- +goose Down
DROP TABLE journal_auth_failures;
