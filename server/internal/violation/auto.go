package violation

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
)

// Set-based pieces for features that change many students' points in one
// statement each (attendance's automatic violations). The caller holds the
// row locks of every student involved, taken in id order.

// PointChange is one point-audit entry: a violation of a student recorded,
// updated or deleted, with the student's academic-year total before and
// after it.
type PointChange struct {
	StudentID   int64
	ViolationID int64
	// Action is auto_record, auto_update or auto_delete (or any action
	// point_audit accepts).
	Action        string
	Before, After int
}

// PointAuditTx writes changes to the point audit in one statement, in
// their order.
func PointAuditTx(ctx context.Context, tx *sqlx.Tx, changes []PointChange, actor audit.Actor) error {
	if len(changes) == 0 {
		return nil
	}
	n := len(changes)
	students, violations := make([]int64, n), make([]int64, n)
	actions := make([]string, n)
	befores, afters := make([]int64, n), make([]int64, n)
	for i, c := range changes {
		students[i], violations[i], actions[i] = c.StudentID, c.ViolationID, c.Action
		befores[i], afters[i] = int64(c.Before), int64(c.After)
	}
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	const q = `INSERT INTO point_audit (student_id, violation_id, action, points_before, points_after, actor_id, actor_name, address)
		SELECT u.student_id, u.violation_id, u.action, u.before, u.after, $1, $2, $3
		FROM unnest($4::bigint[], $5::bigint[], $6::text[], $7::int[], $8::int[]) WITH ORDINALITY
		    AS u(student_id, violation_id, action, before, after, ord)
		ORDER BY u.ord`
	if _, err := tx.ExecContext(ctx, q, actorID, actor.Display(), actor.Address, pq.Array(students), pq.Array(violations),
		pq.Array(actions), pq.Array(befores), pq.Array(afters)); err != nil {
		return fmt.Errorf("violation: point audit: %w", err)
	}
	return nil
}

// StudentYear is a student in one academic year (Start is its first day).
type StudentYear struct {
	StudentID int64
	Start     time.Time
}

// YearTotalsTx returns the points of each student in each academic year
// (from Start to a year later), in one statement.
func YearTotalsTx(ctx context.Context, q sqlx.QueryerContext, keys []StudentYear) (map[StudentYear]int, error) {
	out := make(map[StudentYear]int, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	ids, starts := make([]int64, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		ids[i], starts[i] = k.StudentID, k.Start.Format(time.DateOnly)
	}
	const sq = `SELECT u.student_id, to_char(u.start, 'YYYY-MM-DD') AS start,
		    COALESCE((SELECT sum(v.points) FROM violations v WHERE v.student_id = u.student_id
		        AND v.occurred_on >= u.start AND v.occurred_on < (u.start + interval '1 year')::date), 0) AS total
		FROM unnest($1::bigint[], $2::date[]) AS u(student_id, start)`
	var rows []struct {
		StudentID int64  `db:"student_id"`
		Start     string `db:"start"`
		Total     int    `db:"total"`
	}
	if err := sqlx.SelectContext(ctx, q, &rows, sq, pq.Array(ids), pq.Array(starts)); err != nil {
		return nil, fmt.Errorf("violation: year totals: %w", err)
	}
	byStart := map[string]time.Time{}
	for _, k := range keys {
		byStart[k.Start.Format(time.DateOnly)] = k.Start
	}
	for _, r := range rows {
		out[StudentYear{StudentID: r.StudentID, Start: byStart[r.Start]}] = r.Total
	}
	return out, nil
}

// YearStanding is a student's new total in an academic year after a
// batch of changes; ViolationID names the violation whose change brought
// it there (nil: none).
type YearStanding struct {
	StudentYear
	Total       int
	ViolationID *int64
}

// LetterChanges is what SettleLettersTx did.
type LetterChanges struct {
	Issued    []int64
	Withdrawn []int64
}

// SettleLettersTx brings the warning letters of many students in line with
// their new totals, in a fixed number of statements: every draft whose
// level a total no longer reaches is withdrawn (as Delete does), then
// every level a total reaches with no live letter that academic year is
// issued as a draft (as RecordTx does: all missing levels, never twice),
// with its events and one audit entry for the letters issued. The caller
// names the withdrawn ones in its own audit entry (as Delete does).
func SettleLettersTx(ctx context.Context, tx *sqlx.Tx, standings []YearStanding, actor audit.Actor) (LetterChanges, error) {
	var out LetterChanges
	if len(standings) == 0 {
		return out, nil
	}
	n := len(standings)
	ids, starts, totals := make([]int64, n), make([]string, n), make([]int64, n)
	vids := make([]sql.NullInt64, n)
	for i, s := range standings {
		ids[i], starts[i], totals[i] = s.StudentID, s.Start.Format(time.DateOnly), int64(s.Total)
		if s.ViolationID != nil {
			vids[i] = sql.NullInt64{Int64: *s.ViolationID, Valid: true}
		}
	}
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	const withdraw = `WITH u AS (SELECT * FROM unnest($1::bigint[], $2::date[], $3::int[]) AS u(student_id, start, total)),
		w AS (UPDATE warning_letters wl SET status = 'withdrawn', withdrawn_at = now(), withdrawn_reason = $4, updated_at = now()
		    FROM u WHERE wl.student_id = u.student_id AND wl.academic_year_start = u.start
		      AND wl.status = 'draft' AND wl.min_points > u.total
		      AND (wl.academic_year_start >= ($7::timestamptz AT TIME ZONE 'Asia/Jakarta')::date OR wl.issued_at >= $7::timestamptz)
		    RETURNING wl.id),
		e AS (INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name)
		    SELECT id, 'withdrawn', $5, $6 FROM w)
		SELECT id FROM w ORDER BY id`
	// Letters of an ended year issued before this one began are read-only
	// (letterWorkable).
	cur, _, err := AcademicYear(ctx, tx, JakartaDay(time.Now()))
	if err != nil {
		return out, err
	}
	if err := tx.SelectContext(ctx, &out.Withdrawn, withdraw, pq.Array(ids), pq.Array(starts), pq.Array(totals),
		WithdrawReason, actorID, actor.Display(), cur); err != nil {
		return out, fmt.Errorf("violation: withdraw letters: %w", err)
	}
	const issue = `WITH u AS (SELECT * FROM unnest($1::bigint[], $2::date[], $3::int[], $4::bigint[]) AS u(student_id, start, total, violation_id)),
		i AS (INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, violation_id)
		    SELECT s.id, s.class_id, COALESCE(c.name, ''), t.level, t.name, t.min_points, u.start, u.total, u.violation_id
		    FROM u JOIN students s ON s.id = u.student_id LEFT JOIN classes c ON c.id = s.class_id
		    JOIN sp_thresholds t ON t.min_points <= u.total
		    WHERE NOT EXISTS (SELECT 1 FROM warning_letters w WHERE w.student_id = u.student_id
		        AND w.academic_year_start = u.start AND w.level = t.level AND w.status <> 'withdrawn')
		    ORDER BY s.id, u.start, t.level
		    ON CONFLICT (student_id, academic_year_start, level) WHERE status <> 'withdrawn' DO NOTHING
		    RETURNING id),
		e AS (INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name)
		    SELECT id, 'draft', $5, $6 FROM i)
		SELECT id FROM i ORDER BY id`
	if err := tx.SelectContext(ctx, &out.Issued, issue, pq.Array(ids), pq.Array(starts), pq.Array(totals),
		pq.Array(vids), actorID, actor.Display()); err != nil {
		return out, fmt.Errorf("violation: issue letters: %w", err)
	}
	if len(out.Issued) > 0 {
		if err := audit.Record(ctx, tx, actor, "warning_letter.issue", "warning_letter", strconv.FormatInt(out.Issued[0], 10), map[string]any{
			"ids": out.Issued,
		}); err != nil {
			return out, err
		}
		if err := parentmsg.LettersTx(ctx, tx, out.Issued, actor.ID); err != nil {
			return out, err
		}
	}
	return out, nil
}
