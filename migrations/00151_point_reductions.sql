-- +goose Up
-- The points policy (issue 28; docs/achievements.md): reductions of a
-- student's academic-year total by verified achievements (offset) or by a
-- clean period (amnesty). Each is a ledger change (package points): the
-- year total every reader uses is the violations' points less these.

CREATE TABLE point_reductions (
    id                  bigserial PRIMARY KEY,
    student_id          bigint NOT NULL REFERENCES students(id) ON DELETE RESTRICT,
    academic_year_start date NOT NULL,
    points              integer NOT NULL CHECK (points > 0),
    policy              text NOT NULL CHECK (policy IN ('offset', 'amnesty')),
    -- offset: the verified achievement that reduced the total
    achievement_id      bigint REFERENCES achievements(id) ON DELETE SET NULL,
    -- amnesty: the last day before the clean period (the latest violation
    -- or the previous amnesty); one reduction per period
    period_start        date,
    applied_on          date NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    CHECK (policy <> 'amnesty' OR period_start IS NOT NULL)
);
CREATE INDEX point_reductions_student_idx ON point_reductions (student_id, academic_year_start);
CREATE UNIQUE INDEX point_reductions_offset_key ON point_reductions (achievement_id, student_id) WHERE policy = 'offset';
CREATE UNIQUE INDEX point_reductions_amnesty_key ON point_reductions (student_id, period_start) WHERE policy = 'amnesty';

ALTER TABLE point_audit DROP CONSTRAINT point_audit_action_check;
ALTER TABLE point_audit ADD CONSTRAINT point_audit_action_check
    CHECK (action IN ('record', 'delete', 'update', 'correct', 'auto_record', 'auto_update', 'auto_delete', 'offset', 'amnesty'));

-- +goose Down
DELETE FROM point_audit WHERE action IN ('offset', 'amnesty');
ALTER TABLE point_audit DROP CONSTRAINT point_audit_action_check;
ALTER TABLE point_audit ADD CONSTRAINT point_audit_action_check
    CHECK (action IN ('record', 'delete', 'update', 'correct', 'auto_record', 'auto_update', 'auto_delete'));
DROP TABLE point_reductions;
