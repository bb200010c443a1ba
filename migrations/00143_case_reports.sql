-- +goose Up
-- The anonymous report channel (/lapor, docs/cases.md). A report is a case
-- (source anonymous_report) with a tracking code and a hashed PIN; the
-- reporter and the school exchange messages through it. No client address
-- is stored with a report: the only trace of an address is the hashed one
-- in case_report_hits, counted per window for abuse control and pruned
-- once its window has passed.
CREATE TABLE case_reports (
    id              bigserial PRIMARY KEY,
    case_id         bigint NOT NULL UNIQUE REFERENCES cases(id) ON DELETE CASCADE,
    code            text NOT NULL UNIQUE,
    pin_hash        text NOT NULL,
    -- optional, as the reporter wrote it; never verified
    reporter_name   text NOT NULL DEFAULT '',
    -- wrong PINs in a row; at the limit the code is locked until locked_until
    failed_pins     integer NOT NULL DEFAULT 0,
    locked_until    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE case_report_messages (
    id            bigserial PRIMARY KEY,
    report_id     bigint NOT NULL REFERENCES case_reports(id) ON DELETE CASCADE,
    from_reporter boolean NOT NULL,
    body          text NOT NULL,
    user_id       bigint REFERENCES users(id) ON DELETE SET NULL,
    user_name     text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_report_messages_report_idx ON case_report_messages (report_id, id);

-- Photos sent with a report: re-encoded without EXIF by the evidence photo
-- pipeline (violation.PreparePhoto) before they are stored.
CREATE TABLE case_report_photos (
    id         bigserial PRIMARY KEY,
    report_id  bigint NOT NULL REFERENCES case_reports(id) ON DELETE CASCADE,
    image      bytea NOT NULL,
    thumbnail  bytea NOT NULL,
    width      integer NOT NULL,
    height     integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_report_photos_report_idx ON case_report_photos (report_id);

-- Public report submissions and lookups per hashed client address and
-- window (kind: report, lookup), shared by every replica.
CREATE TABLE case_report_hits (
    kind         text NOT NULL,
    address_hash text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         integer NOT NULL,
    PRIMARY KEY (kind, address_hash, window_start)
);
CREATE INDEX case_report_hits_window_idx ON case_report_hits (window_start);

-- +goose Down
DROP TABLE case_report_hits;
DROP TABLE case_report_photos;
DROP TABLE case_report_messages;
DROP TABLE case_reports;
