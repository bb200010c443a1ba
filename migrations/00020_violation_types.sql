-- +goose Up
-- Violation master data: categories, types, warning-letter (SP) thresholds
-- and handling types. The default rows are not inserted here: they live in
-- one Go function, violationtype.EnsureDefaults, which the server's boot and
-- the application reset both call (see docs/violation-types.md).

-- Names are stored trimmed with inner whitespace collapsed (the Go code does
-- it), so lower(name) compares them case- and space-insensitively.
CREATE TABLE violation_categories (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL CHECK (name <> '' AND length(name) <= 50),
    -- a hex colour (#e03131) or a Mantine colour name (red, orange, ...)
    colour     text NOT NULL DEFAULT 'gray',
    sort_order integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX violation_categories_name_key ON violation_categories (lower(name));

CREATE TABLE violation_types (
    id               bigserial PRIMARY KEY,
    name             text NOT NULL CHECK (name <> '' AND length(name) <= 150),
    -- stable identifier; alpha and terlambat are the system types the
    -- attendance feature looks up. A system type's slug never changes.
    slug             text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    points           integer NOT NULL CHECK (points >= 0 AND points <= 1000),
    category_id      bigint NOT NULL REFERENCES violation_categories(id) ON DELETE RESTRICT,
    default_sanction text NOT NULL DEFAULT '',
    description      text NOT NULL DEFAULT '',
    active           boolean NOT NULL DEFAULT true,
    is_system        boolean NOT NULL DEFAULT false,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX violation_types_slug_key ON violation_types (slug);
CREATE UNIQUE INDEX violation_types_category_name_key ON violation_types (category_id, lower(name));
CREATE INDEX violation_types_category_idx ON violation_types (category_id);

-- Warning-letter thresholds: level 1..n, min_points strictly increasing with
-- the level (checked by the API, which replaces the whole list at once).
CREATE TABLE sp_thresholds (
    id           bigserial PRIMARY KEY,
    level        integer NOT NULL CHECK (level >= 1),
    name         text NOT NULL CHECK (name <> ''),
    min_points   integer NOT NULL CHECK (min_points > 0),
    colour       text NOT NULL DEFAULT 'red',
    default_text text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sp_thresholds_level_key ON sp_thresholds (level);

CREATE TABLE handling_types (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL CHECK (name <> '' AND length(name) <= 100),
    sort_order integer NOT NULL DEFAULT 0,
    active     boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX handling_types_name_key ON handling_types (lower(name));

-- +goose Down
DROP TABLE handling_types;
DROP TABLE sp_thresholds;
DROP TABLE violation_types;
DROP TABLE violation_categories;
