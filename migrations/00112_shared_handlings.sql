-- +goose Up
-- One handling record may cover several violations (issue 22; see
-- docs/violations.md, "Handling"). A record made for one violation
-- (POST /violations/{id}/handlings) keeps it in handlings.violation_id, as
-- every existing reader expects. A record made by POST /handlings (the
-- list's "Tangani", the homeroom teacher's bulk resolve) has violation_id
-- NULL and lists its violations here, each with the status it had before
-- the record (deleting the record returns it there) and whether resolving
-- the record is what resolved it.
ALTER TABLE handlings ALTER COLUMN violation_id DROP NOT NULL;

CREATE TABLE handling_violations (
    handling_id   bigint NOT NULL REFERENCES handlings(id) ON DELETE CASCADE,
    violation_id  bigint NOT NULL REFERENCES violations(id) ON DELETE CASCADE,
    -- a resolved violation takes no new record, so it is never "before"
    status_before text NOT NULL CHECK (status_before IN ('unhandled', 'in_progress')),
    resolved_here boolean NOT NULL DEFAULT false,
    PRIMARY KEY (handling_id, violation_id)
);
CREATE INDEX handling_violations_violation_idx ON handling_violations (violation_id);

-- Every (violation, handling record) pair, whichever kind the record is:
-- what a reader of "the handling records of violation v" joins. A
-- condition on violation_id reaches both branches' indexes.
CREATE VIEW violation_handlings AS
    SELECT violation_id, id AS handling_id FROM handlings WHERE violation_id IS NOT NULL
    UNION ALL
    SELECT violation_id, handling_id FROM handling_violations;

-- A shared record whose violations have all been deleted goes with the
-- last of them, as a one-violation record goes with its violation (the
-- ON DELETE CASCADE of handlings.violation_id). One statement-level
-- trigger covers every path that deletes violations.
-- +goose StatementBegin
CREATE FUNCTION handling_violations_orphans() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM handlings h
    WHERE h.violation_id IS NULL AND h.id IN (SELECT DISTINCT handling_id FROM gone)
      AND NOT EXISTS (SELECT 1 FROM handling_violations hv WHERE hv.handling_id = h.id);
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER handling_violations_orphans AFTER DELETE ON handling_violations
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION handling_violations_orphans();

-- +goose Down
DROP TRIGGER handling_violations_orphans ON handling_violations;
DROP FUNCTION handling_violations_orphans();
DROP VIEW violation_handlings;
DROP TABLE handling_violations;
DELETE FROM handlings WHERE violation_id IS NULL;
ALTER TABLE handlings ALTER COLUMN violation_id SET NOT NULL;
