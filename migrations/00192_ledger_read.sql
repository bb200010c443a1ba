-- +goose Up
-- The ledger's read of a few students (points.Ledger.read; its readSQL is
-- this body, a test compares them): each key's net year total and
-- lifetime total, its letters, the thresholds and the messaging settings.
-- A PL/pgSQL function because PostgreSQL keeps its plan per connection:
-- sent as a query with its parameters (lib/pq's binary_parameters, no
-- prepared statement, so a transaction pooler is safe) it was planned on
-- every recording, which cost twice running it. Only batches of a few keys
-- call it (its plan is a generic one); larger ones send the query. $1
-- students, $2 their years' first days, $3 the running year's first day,
-- $4 the withdrawn reason of a revivable draft, $5 whether to sum
-- lifetimes, $6 the messaging settings' key.
-- +goose StatementBegin
CREATE FUNCTION ledger_read(bigint[], date[], date, text, boolean, text)
RETURNS TABLE (r_totals json, r_letters json, r_thresholds json, r_messaging jsonb)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN QUERY
WITH k AS (SELECT * FROM unnest($1::bigint[], $2::date[]) AS k(student_id, start))
		SELECT
		    (SELECT json_agg(json_build_object('s', k.student_id, 'y', to_char(k.start, 'YYYY-MM-DD'),
		        't', COALESCE((SELECT p.total FROM student_year_points(k.start) p WHERE p.student_id = k.student_id), 0),
		        'l', CASE WHEN $5 THEN COALESCE((SELECT sum(v.points) FROM violations v WHERE v.student_id = k.student_id), 0)
		            - COALESCE((SELECT sum(r.points) FROM point_reductions r WHERE r.student_id = k.student_id), 0) END)) FROM k) AS totals,
		    (SELECT COALESCE(json_agg(json_build_object('id', w.id, 's', w.student_id, 'y', to_char(w.academic_year_start, 'YYYY-MM-DD'),
		        'status', w.status, 'level', w.level, 'levels', w.levels_covered, 'name', w.name, 'min', w.min_points,
		        'workable', (w.academic_year_start >= $3::date OR w.issued_at >= ($3::date)::timestamp AT TIME ZONE 'Asia/Jakarta'), 'fallen', w.total_fallen_at IS NOT NULL,
		        'revivable', w.status = 'withdrawn') ORDER BY w.id), '[]')
		     FROM k JOIN warning_letters w ON w.student_id = k.student_id AND w.academic_year_start = k.start
		     WHERE w.status <> 'withdrawn'
		        OR (w.printed_at IS NULL AND w.number IS NULL AND w.sent_to_parent_at IS NULL AND w.withdrawn_reason = $4)) AS letters,
		    (SELECT COALESCE(json_agg(json_build_object('level', t.level, 'name', t.name, 'min', t.min_points, 'colour', t.colour)
		        ORDER BY t.level), '[]') FROM sp_thresholds t) AS thresholds,
		    (SELECT value FROM settings WHERE key = $6) AS messaging;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_read(bigint[], date[], date, text, boolean, text);
