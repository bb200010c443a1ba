-- +goose Up
-- A student's points of an academic year, the one definition every reader
-- uses (issue 28, docs/achievements.md "Net totals"): the violations'
-- points of the year ("gross") less the points policy's reductions
-- (point_reductions, "reduced"); "total" is the net figure the ledger,
-- the letters, the reports, the early warnings and the dashboard show.
-- $1: the academic year's first day; $2 (optional): count only what
-- happened up to that day (a report's end). One row per student with a
-- violation or a reduction that year. A plain SQL set-returning function:
-- PostgreSQL inlines it, so a filter on student_id reaches the indexes.
-- +goose StatementBegin
CREATE FUNCTION student_year_points(year_start date, upto date DEFAULT NULL)
RETURNS TABLE (student_id bigint, gross integer, reduced integer, total integer)
LANGUAGE sql STABLE AS $$
    SELECT x.sid, sum(x.g)::int, sum(x.r)::int, (sum(x.g) - sum(x.r))::int
    FROM (
        SELECT v.student_id AS sid, v.points AS g, 0 AS r
        FROM violations v
        WHERE v.occurred_on >= $1 AND v.occurred_on < ($1 + interval '1 year')::date
          AND ($2 IS NULL OR v.occurred_on <= $2)
        UNION ALL
        SELECT pr.student_id, 0, pr.points
        FROM point_reductions pr
        WHERE pr.academic_year_start = $1 AND ($2 IS NULL OR pr.applied_on <= $2)
    ) x
    GROUP BY x.sid
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION student_year_points(date, date);
