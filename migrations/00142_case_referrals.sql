-- +goose Up
-- When and to whom a case's referral to the regional working group (Pokja)
-- was sent (docs/cases.md).
CREATE TABLE case_referrals (
    id              bigserial PRIMARY KEY,
    case_id         bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    sent_to         text NOT NULL,
    sent_on         date NOT NULL,
    notes           text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    created_by_name text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_referrals_case_idx ON case_referrals (case_id, sent_on);

-- +goose Down
DROP TABLE case_referrals;
