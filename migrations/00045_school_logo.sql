-- +goose Up
-- The school's logo for the letterhead and the sign-in page. In PostgreSQL,
-- not on a replica's disk, so every replica and every backup has it. One
-- row at most (id is always true). Stored re-encoded as PNG, at most 512 px
-- on its longer side.
CREATE TABLE school_logo (
    id         boolean PRIMARY KEY DEFAULT true CHECK (id),
    image      bytea NOT NULL,
    width      integer NOT NULL,
    height     integer NOT NULL,
    -- hex SHA-256 of image: the ETag
    sha256     text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    updated_by bigint REFERENCES users(id) ON DELETE SET NULL
);

-- +goose Down
DROP TABLE school_logo;
