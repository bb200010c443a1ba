-- +goose Up
-- A recording's first statement (violation.RecordTx's recordCall): lock the student as points.Lock does, read the
-- student, the types and the school's profile for the checks, and insert
-- the violations, answering them as the API shows them. A PL/pgSQL
-- function because PostgreSQL keeps its plan per connection: sent as a
-- query with parameters (lib/pq's binary_parameters, no prepared
-- statement, so a transaction pooler is safe) it was planned again on
-- every recording, which cost more than running it. The checks are the
-- caller's, after it; a failed one rolls the transaction back.
-- +goose StatementBegin
CREATE FUNCTION record_violations(p_student bigint, p_types bigint[], p_points int[], p_sanctions text[], p_sanction text,
    p_occurred_at timestamptz, p_occurred_on date, p_location text, p_description text, p_recorded_by bigint,
    p_recorded_by_name text, p_source text, p_case_id bigint, p_profile_key text)
RETURNS TABLE (r_student json, r_types json, r_profile jsonb, r_profile_at timestamptz, r_violations json)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH s AS (
        SELECT s.id, s.full_name, s.nisn, s.nis, s.active, s.class_id, COALESCE(c.name, '') AS class_name,
            COALESCE(c.homeroom_teacher_id, 0) AS homeroom, COALESCE(d.name, '') AS department_name
        FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN departments d ON d.id = c.department_id
        WHERE s.id = p_student FOR UPDATE OF s),
    u AS (SELECT * FROM unnest(p_types::bigint[], p_points::int[], p_sanctions::text[]) WITH ORDINALITY AS u(type_id, points, sanction, ord)),
    t AS (SELECT id, name, points, default_sanction, active, is_system FROM violation_types WHERE id = ANY(p_types::bigint[])),
    ins AS (INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on,
            points, sanction, location, description, recorded_by, recorded_by_name, source, case_id)
        SELECT s.id, s.class_id, s.class_name, t.id, p_occurred_at, p_occurred_on::date, CASE WHEN u.points >= 0 THEN u.points ELSE t.points END,
            COALESCE(NULLIF(u.sanction, ''), NULLIF(p_sanction, ''), t.default_sanction), p_location, p_description, p_recorded_by, p_recorded_by_name, p_source, p_case_id
        FROM s CROSS JOIN u JOIN t ON t.id = u.type_id
        ORDER BY u.ord
        RETURNING *)
    SELECT (SELECT row_to_json(s) FROM s) AS student,
        (SELECT COALESCE(json_agg(t), '[]') FROM t) AS types,
        (SELECT value FROM settings WHERE key = p_profile_key) AS profile,
        (SELECT updated_at FROM settings WHERE key = p_profile_key) AS profile_at,
        (SELECT COALESCE(json_agg(json_build_object('id', v.id, 'student_id', v.student_id, 'student_name', s.full_name,
            'student_nisn', s.nisn, 'student_nis', s.nis, 'class_id', v.class_id, 'class_name', v.class_name,
            'department_name', s.department_name, 'type_id', v.violation_type_id, 'type_name', vt.name, 'type_slug', vt.slug,
            'category_id', vt.category_id, 'category_name', cat.name, 'category_colour', cat.colour,
            'occurred_at', v.occurred_at, 'occurred_on', to_char(v.occurred_on, 'YYYY-MM-DD'), 'points', v.points,
            'sanction', v.sanction, 'location', v.location, 'description', v.description, 'recorded_by', v.recorded_by,
            'recorded_by_name', v.recorded_by_name, 'source', v.source, 'verified_by', v.verified_by, 'verified_by_name', '',
            'verified_at', v.verified_at, 'handling_status', v.handling_status, 'handled_at', v.handled_at,
            'handled_by', v.handled_by, 'handled_by_name', '', 'photo_count', 0,
            'created_at', v.created_at, 'updated_at', v.updated_at) ORDER BY v.id), '[]')
         FROM ins v JOIN s ON true JOIN violation_types vt ON vt.id = v.violation_type_id
         JOIN violation_categories cat ON cat.id = vt.category_id) AS violations;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION record_violations(bigint, bigint[], int[], text[], text, timestamptz, date, text, text, bigint, text, text, bigint, text);
