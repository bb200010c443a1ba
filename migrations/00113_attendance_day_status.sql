-- +goose Up
-- A student's day status from its lesson-hour counts (attendance_days), by
-- the school's day rule (docs/attendance.md, "Days"):
--   majority   the status of most filled hours, ties broken A > S > I > T > H
--   any_alpha  any A hour makes the day A; otherwise as majority
-- NULL for a day with no filled hour. One definition for every recap, the
-- semester export and any later reader, so a day is never counted two ways.
-- A plain SQL expression (IMMUTABLE, no STRICT) that the planner inlines:
-- it costs what the CASE written out in the query would.
-- +goose StatementBegin
CREATE FUNCTION attendance_day_status(h integer, s integer, i integer, a integer, t integer, rule text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN h + s + i + a + t <= 0 THEN NULL
        WHEN rule = 'any_alpha' AND a > 0 THEN 'A'
        WHEN a >= greatest(h, s, i, t) THEN 'A'
        WHEN s >= greatest(h, i, t) THEN 'S'
        WHEN i >= greatest(h, t) THEN 'I'
        WHEN t >= h THEN 'T'
        ELSE 'H'
    END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION attendance_day_status(integer, integer, integer, integer, integer, text);
