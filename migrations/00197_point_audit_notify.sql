-- +goose Up
-- A recording's second statement (points.Ledger.tell through
-- notify.ViolationsAfterCallTx) when no letter changes: the point audit
-- (points' pointAuditSQL), the recording's audit entry (points' entrySQL)
-- and its notifications (notify_violations, migration 00191), the
-- parameters those three statements take when sent as one ($1-$14 the
-- ledger's, $15-$18 notify_violations'). It was sent as one statement of
-- three parts, planned again on every recording; a PL/pgSQL function keeps
-- its plans per connection. A test compares the body with the Go
-- statements: a change of one is a new migration replacing the function.
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

-- +goose Down
DROP FUNCTION point_audit_notify(bigint, text, text, bigint[], bigint[], text[], int[], int[], text[],
    text, text, text, text, text, bigint, text[], bigint[], text);
