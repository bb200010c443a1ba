-- +goose Up
-- A doctor's note with an excuse: the evidence-photo rules (re-encoded as
-- JPEG, so no EXIF or location survives; violation.PreparePhoto), kept in
-- PostgreSQL like violation photos so every replica and backup has them.
CREATE TABLE excuse_photos (
    id        bigserial PRIMARY KEY,
    excuse_id bigint NOT NULL REFERENCES excuses(id) ON DELETE CASCADE,
    position  smallint NOT NULL,
    width     integer NOT NULL,
    height    integer NOT NULL,
    image     bytea NOT NULL,
    thumbnail bytea NOT NULL,
    UNIQUE (excuse_id, position)
);

-- +goose Down
DROP TABLE excuse_photos;
