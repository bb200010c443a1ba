-- +goose Up
-- The family portal, part 2 (docs/portal.md): a guardian's acknowledgement
-- of a warning letter ("Saya sudah membaca"), one per guardian and letter.
-- It is not the letter's delivery: the letter's status does not move.
CREATE TABLE letter_acknowledgements (
    letter_id       bigint NOT NULL REFERENCES warning_letters(id) ON DELETE CASCADE,
    guardian_id     bigint NOT NULL REFERENCES guardians(id) ON DELETE CASCADE,
    -- the guardian's name when they acknowledged, for the letter's readers
    guardian_name   text NOT NULL,
    acknowledged_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (letter_id, guardian_id)
);

-- +goose Down
DROP TABLE letter_acknowledgements;
