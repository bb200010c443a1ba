-- +goose Up
-- Statements sent on every recording, and the session check of every
-- request, as PL/pgSQL functions: sent as queries with their parameters
-- (lib/pq's binary_parameters, no prepared statement, so a transaction
-- pooler is safe) they were planned again each time; a function keeps its
-- plans per connection. And notify_violations (00191) with a plan that no
-- longer reads every student. A test compares each body with the Go
-- statement it runs: a change of one is a new migration replacing the
-- function.
--
-- point_audit_notify: a recording's second statement (points.Ledger.tell through
-- notify.ViolationsAfterCallTx) when no letter changes: the point audit
-- (points' pointAuditSQL), the recording's audit entry (points' entrySQL)
-- and its notifications (notify_violations, migration 00191), the
-- parameters those three statements take when sent as one ($1-$14 the
-- ledger's, $15-$18 notify_violations'). It was sent as one statement of
-- three parts.
-- +goose StatementBegin
CREATE FUNCTION point_audit_notify(bigint, text, text, bigint[], bigint[], text[], int[], int[], text[],
    text, text, text, text, text, bigint, text[], bigint[], text) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    INSERT INTO point_audit (student_id, violation_id, action, points_before, points_after, actor_id, actor_name, address, details)
		SELECT u.student_id, NULLIF(u.violation_id, 0), u.action, u.before, u.after, $1, $2, $3, u.details::jsonb
		FROM unnest($4::bigint[], $5::bigint[], $6::text[], $7::int[], $8::int[], $9::text[]) WITH ORDINALITY
		    AS u(student_id, violation_id, action, before, after, details, ord)
		ORDER BY u.ord;
    INSERT INTO audit_log (actor_id, actor_name, action, entity, entity_id, details, address)
			VALUES ($1, $10, $11, $12, $13, $14::jsonb, $3);
    PERFORM notify_violations($15, $16, $17, $18);
END
$$;
-- +goose StatementEnd

-- session_principal: the session check (auth's sessionSQL): the user of
-- an unexpired session whose token hashes to $1 and who is active; $2 the
-- oldest last use an idle session may have, $3 the oldest start.
-- +goose StatementBegin
CREATE FUNCTION session_principal(bytea, timestamptz, timestamptz)
RETURNS TABLE (r_id bigint, r_username text, r_name text, r_role text, r_email text, r_phone text, r_active boolean,
    r_last_login_at timestamptz, r_created_at timestamptz, r_updated_at timestamptz, r_last_seen_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    SELECT u.id, u.username, u.name, u.role, u.email, u.phone, u.active, u.last_login_at, u.created_at, u.updated_at,
		s.last_seen_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND u.active AND s.last_seen_at > $2 AND s.created_at > $3;
END
$$;
-- +goose StatementEnd

-- notify_violations (00191), replaced: each violation's student is found
-- by its key (a nested loop, OFFSET 0 keeps the subquery apart) where the
-- generic plan, expecting ten violations, hashed the whole students table
-- on every recording and correction. Measured with 1,200 students and 40
-- users: 0.81 ms a call, was 1.09. Its body is notify's violationsSQL (a
-- test compares them).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION notify_violations(bigint, text[], bigint[], text) RETURNS SETOF bigint
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
		JOIN LATERAL (SELECT s.id, s.full_name, s.class_id FROM students s WHERE s.id = v.student_id OFFSET 0) s ON true
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
DROP FUNCTION session_principal(bytea, timestamptz, timestamptz);
DROP FUNCTION point_audit_notify(bigint, text, text, bigint[], bigint[], text[], int[], int[], text[],
    text, text, text, text, text, bigint, text[], bigint[], text);
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION notify_violations(bigint, text[], bigint[], text) RETURNS SETOF bigint
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
