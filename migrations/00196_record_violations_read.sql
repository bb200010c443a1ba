-- +goose Up
-- A recording's first statement with the ledger's read in it
-- (violation.RecordTx's recordCall): record_violations() (migration 00190)
-- locks the student, reads it, the types and the profile and inserts the
-- violations; then, in a statement of its own, ledger_read() (00192) reads
-- the student's totals, letters, the thresholds and the messaging settings,
-- a round trip less than the ledger reading them after it. A VOLATILE
-- function takes a new snapshot for each statement it runs, so the read
-- sees what committed while the lock was awaited, as the ledger's own
-- statement did.
--
-- The read is of the academic year of p_occurred_on, with p_today's as the
-- running one, each counted from the profile's academic_year_start (MM-DD,
-- school.Profile.AcademicYearStartOn); r_year_start and r_current say which
-- years were read. The caller compares them with its own (Go's rule is the
-- definition) and reads again when they differ; a start that is not a
-- plain valid MM-DD of that year is left NULL here, and the read with it.
-- +goose StatementBegin
CREATE FUNCTION record_violations_read(p_student bigint, p_types bigint[], p_points int[], p_sanctions text[], p_sanction text,
    p_occurred_at timestamptz, p_occurred_on date, p_location text, p_description text, p_recorded_by bigint,
    p_recorded_by_name text, p_source text, p_case_id bigint, p_profile_key text,
    p_today date, p_withdrawn_reason text, p_messaging_key text)
RETURNS TABLE (r_student json, r_types json, r_profile jsonb, r_profile_at timestamptz, r_violations json,
    r_year_start date, r_current date, r_totals json, r_letters json, r_thresholds json, r_messaging jsonb)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    mmdd text;
    m int;
    d int;
BEGIN
    SELECT rv.r_student, rv.r_types, rv.r_profile, rv.r_profile_at, rv.r_violations
    INTO r_student, r_types, r_profile, r_profile_at, r_violations
    FROM record_violations(p_student, p_types, p_points, p_sanctions, p_sanction, p_occurred_at, p_occurred_on, p_location,
        p_description, p_recorded_by, p_recorded_by_name, p_source, p_case_id, p_profile_key) rv;
    mmdd := COALESCE(NULLIF(r_profile->>'academic_year_start', ''), '07-01');
    IF r_student IS NOT NULL AND mmdd ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' THEN
        m := substr(mmdd, 1, 2)::int;
        d := substr(mmdd, 4, 2)::int;
        -- The start in the day's year, or the year before when it is later.
        SELECT CASE WHEN s > p_occurred_on THEN (s - interval '1 year')::date ELSE s END INTO r_year_start
        FROM (SELECT make_date(extract(year FROM p_occurred_on)::int, m, 1) + (d - 1) AS s) y
        WHERE extract(month FROM s) = m;
        SELECT CASE WHEN s > p_today THEN (s - interval '1 year')::date ELSE s END INTO r_current
        FROM (SELECT make_date(extract(year FROM p_today)::int, m, 1) + (d - 1) AS s) y
        WHERE extract(month FROM s) = m;
        IF r_year_start IS NOT NULL AND r_current IS NOT NULL THEN
            SELECT lr.r_totals, lr.r_letters, lr.r_thresholds, lr.r_messaging
            INTO r_totals, r_letters, r_thresholds, r_messaging
            FROM ledger_read(ARRAY[p_student], ARRAY[r_year_start], r_current, p_withdrawn_reason, true, p_messaging_key) lr;
        END IF;
    END IF;
    RETURN NEXT;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION record_violations_read(bigint, bigint[], int[], text[], text, timestamptz, date, text, text, bigint, text, text, bigint, text,
    date, text, text);
