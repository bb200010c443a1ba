-- +goose Up
CREATE TABLE users (
    id            bigserial PRIMARY KEY,
    username      text NOT NULL,
    name          text NOT NULL,
    role          text NOT NULL CHECK (role IN ('admin','bk','wali_kelas','staff','other','kepala_sekolah','waka','ketua_tim')),
    email         text NOT NULL DEFAULT '',
    phone         text NOT NULL DEFAULT '',
    password_hash text NOT NULL,
    active        boolean NOT NULL DEFAULT true,
    last_login_at timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

-- Sessions store only the SHA-256 of the token.
CREATE TABLE sessions (
    token_hash   bytea PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    user_agent   text NOT NULL DEFAULT '',
    address      text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- The role access rights matrix: a row says whether a role has a permission.
-- No row for a (role, permission) means the catalogue's default applies.
CREATE TABLE role_permissions (
    role       text NOT NULL,
    permission text NOT NULL,
    granted    boolean NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (role, permission)
);

-- Failed sign-in attempts, for throttling per username and per address
-- across every replica.
CREATE TABLE login_failures (
    id         bigserial PRIMARY KEY,
    username   text NOT NULL,
    address    text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_username_idx ON login_failures (lower(username), at);
CREATE INDEX login_failures_address_idx ON login_failures (address, at);

CREATE TABLE audit_log (
    id         bigserial PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT now(),
    actor_id   bigint REFERENCES users(id) ON DELETE SET NULL,
    actor_name text NOT NULL DEFAULT '',
    action     text NOT NULL,
    entity     text NOT NULL,
    entity_id  text NOT NULL DEFAULT '',
    details    jsonb NOT NULL DEFAULT '{}'::jsonb,
    address    text NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
CREATE INDEX audit_log_entity_idx ON audit_log (entity, entity_id);

-- Settings as one JSON value per key (school profile, integrations, ...).
CREATE TABLE settings (
    key        text PRIMARY KEY,
    value      jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    updated_by bigint REFERENCES users(id) ON DELETE SET NULL
);

-- +goose Down
DROP TABLE settings;
DROP TABLE audit_log;
DROP TABLE login_failures;
DROP TABLE role_permissions;
DROP TABLE sessions;
DROP TABLE users;
