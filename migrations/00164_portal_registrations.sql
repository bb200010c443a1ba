-- +goose Up
-- Self-registration (docs/portal.md, "Registration"): every attempt, for the
-- throttle and the staff's queue screen. outcome: verified (the phone
-- matched the school's record), pending (queued for the homeroom teacher or
-- an admin), no_match (no active student with that NISN and date of birth:
-- nothing is linked, and the answer is the same as pending), refused (staff
-- refused the pending link, with a reason), approved (staff verified it).
CREATE TABLE portal_registrations (
    id          bigserial PRIMARY KEY,
    nisn        text NOT NULL,
    phone       text NOT NULL,
    name        text NOT NULL,
    relation    text NOT NULL,
    address     text NOT NULL DEFAULT '',
    student_id  bigint REFERENCES students(id) ON DELETE SET NULL,
    guardian_id bigint REFERENCES guardians(id) ON DELETE SET NULL,
    outcome     text NOT NULL CHECK (outcome IN ('verified', 'pending', 'no_match', 'refused', 'approved')),
    reason      text NOT NULL DEFAULT '' CHECK (length(reason) <= 500),
    decided_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_registrations_address_idx ON portal_registrations (address, created_at DESC);
CREATE INDEX portal_registrations_phone_idx ON portal_registrations (phone, created_at DESC);

-- +goose Down
DROP TABLE portal_registrations;
