-- +goose Up
-- A recording's notifications (notify.violationsTx; its violationsSQL is
-- this body, a test compares them): one per violation per recipient, and
-- their announcement. A PL/pgSQL function because PostgreSQL keeps its
-- plan per connection: sent as a query with its parameters (lib/pq's
-- binary_parameters, no prepared statement, so a transaction pooler is
-- safe) it was planned on every recording and correction, which cost more
-- than running it. $1 the recorder (0: none), $2 the roles that see
-- violations by default, $3 the violations, $4 the kind.
-- +goose StatementBegin
CREATE FUNCTION notify_violations(bigint, text[], bigint[], text) RETURNS SETOF bigint
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN QUERY
WITH ins AS (
		INSERT INTO notifications (user_id, kind, params, url, violation_id)
		SELECT u.id, $4,
			jsonb_build_object('student', s.full_name, 'class', v.class_name, 'type', t.name, 'points', v.points,
				'date', v.occurred_on::text, 'student_id', s.id),
			'/violations/' || v.id, v.id
		FROM violations v
		JOIN students s ON s.id = v.student_id
		JOIN violation_types t ON t.id = v.violation_type_id
		JOIN users u ON u.active AND (u.id = $1 OR (
		(u.role = 'admin'
		 OR EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role = u.role AND rp.permission = 'violations.view' AND rp.granted)
		 OR (u.role = ANY($2::text[]) AND NOT EXISTS (SELECT 1 FROM role_permissions rp
			WHERE rp.role = u.role AND rp.permission = 'violations.view')))
		AND (u.role <> 'wali_kelas' OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = u.id
			AND (hc.id = v.class_id OR hc.id = s.class_id)))))
		WHERE v.id = ANY($3::bigint[])
		ORDER BY v.id, u.id
		RETURNING id) SELECT count(*) FROM (SELECT pg_notify('tatib_notifications', min(id) || '-' || max(id)) FROM ins HAVING count(*) > 0) n;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION notify_violations(bigint, text[], bigint[], text);
