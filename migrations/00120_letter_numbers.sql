-- +goose Up
-- Warning letters as a school sends them (issue 23, docs/letters.md):
-- a number from the school's pattern when a letter is first printed, never
-- reused; a short code that opens the public verification page; the NIP
-- printed under a homeroom teacher's signature.

-- number: the reference as printed ("007/SP-1/BK/XI/2026"), kept as text so
-- a later change of the pattern never renumbers paper already sent.
-- number_year/number_seq: the academic year whose sequence gave {seq}, and
-- the {seq}; NULL for the numbers kept from before this migration.
-- verify_code: the short code printed with the QR code.
ALTER TABLE warning_letters
    ADD COLUMN number      text,
    ADD COLUMN number_year date,
    ADD COLUMN number_seq  integer CHECK (number_seq >= 1),
    ADD COLUMN numbered_at timestamptz,
    ADD COLUMN verify_code text CHECK (verify_code ~ '^[A-Z2-7]{12}$'),
    ADD CONSTRAINT warning_letters_number_whole CHECK ((number_seq IS NULL) = (number_year IS NULL)
        AND (number_seq IS NULL OR number IS NOT NULL) AND (number IS NULL) = (numbered_at IS NULL));
CREATE UNIQUE INDEX warning_letters_number_seq_key ON warning_letters (number_year, number_seq) WHERE number_seq IS NOT NULL;
CREATE UNIQUE INDEX warning_letters_verify_code_key ON warning_letters (verify_code) WHERE verify_code IS NOT NULL;

-- The last {seq} given per academic year. A row is only ever counted up
-- (INSERT ... ON CONFLICT DO UPDATE, which locks it): two prints at once
-- wait for each other and never take the same number; a withdrawn letter
-- keeps its number.
CREATE TABLE letter_number_sequences (
    year_start date PRIMARY KEY,
    last_seq   integer NOT NULL CHECK (last_seq >= 0)
);

-- Letters printed before numbers were stored carried the number derived
-- from their id (SP<level>/<id, 4 digits>/BK/<Roman month>/<year>): keep it,
-- so the record says what the paper says.
UPDATE warning_letters SET
    number = 'SP' || level || '/' || lpad(id::text, 4, '0') || '/BK/'
        || (ARRAY['I','II','III','IV','V','VI','VII','VIII','IX','X','XI','XII'])[extract(month FROM issued_at AT TIME ZONE 'Asia/Jakarta')::int]
        || '/' || extract(year FROM issued_at AT TIME ZONE 'Asia/Jakarta')::int,
    numbered_at = printed_at
WHERE printed_at IS NOT NULL;

-- Lookups of the public verification page per client address and minute,
-- counted in the database so every replica shares the limit (the sign-in
-- throttle does the same with login_failures). Old minutes are pruned as
-- new ones start.
CREATE TABLE letter_verify_lookups (
    address      text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         integer NOT NULL,
    PRIMARY KEY (address, window_start)
);
CREATE INDEX letter_verify_lookups_window_idx ON letter_verify_lookups (window_start);

-- A user's NIP (18 digits, or empty): printed under the homeroom teacher's
-- signature on a letter.
ALTER TABLE users ADD COLUMN nip text NOT NULL DEFAULT '' CHECK (nip ~ '^([0-9]{18})?$');

-- +goose Down
ALTER TABLE users DROP COLUMN nip;
DROP TABLE letter_verify_lookups;
DROP TABLE letter_number_sequences;
DROP INDEX warning_letters_verify_code_key;
DROP INDEX warning_letters_number_seq_key;
ALTER TABLE warning_letters DROP CONSTRAINT warning_letters_number_whole,
    DROP COLUMN verify_code, DROP COLUMN numbered_at, DROP COLUMN number_seq, DROP COLUMN number_year, DROP COLUMN number;
