package pointspolicy

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/points"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// OffsetTx applies the offset policy to an achievement a counselor has just
// verified, in the verification's transaction: under offset, each of its
// students' total of the achievement's academic year falls by the
// achievement's points, at most to OffsetCapPercent of the year's
// violation points less the offsets already made, never below zero. Under
// another mode it does nothing (a later switch to offset is not
// retroactive: docs/achievements.md). It answers how many points each
// student lost.
func OffsetTx(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, achievementID int64, now time.Time) (map[int64]int, error) {
	pol, err := Load(ctx, tx)
	if err != nil || pol.Mode != ModeOffset {
		return nil, err
	}
	var a struct {
		Points   int            `db:"points"`
		Day      schoolday.Date `db:"achieved_on"`
		Students pq.Int64Array  `db:"students"`
	}
	if err := tx.GetContext(ctx, &a, `SELECT a.points, a.achieved_on,
			(SELECT array_agg(x.student_id ORDER BY x.student_id) FROM achievement_students x WHERE x.achievement_id = a.id) AS students
		FROM achievements a WHERE a.id = $1`, achievementID); err != nil {
		return nil, fmt.Errorf("pointspolicy: achievement: %w", err)
	}
	if a.Points <= 0 || len(a.Students) == 0 {
		return nil, nil
	}
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("pointspolicy: profile: %w", err)
	}
	start := profile.YearStartOf(a.Day)
	ledger, err := points.Lock(ctx, tx, a.Students)
	if err != nil {
		return nil, err
	}
	// Under the locks: each student's violation points of the year, the
	// offsets and all reductions already made; the reduction is decided
	// and written in one statement.
	var rows []struct {
		StudentID int64 `db:"student_id"`
		Points    int   `db:"points"`
	}
	const q = `WITH t AS (
			SELECT s.id, COALESCE(p.gross, 0) AS v, COALESCE(p.reduced, 0) AS red,
			    COALESCE((SELECT sum(r.points) FROM point_reductions r WHERE r.student_id = s.id
			        AND r.academic_year_start = $2::date AND r.policy = 'offset'), 0) AS off
			FROM unnest($1::bigint[]) AS s(id)
			LEFT JOIN LATERAL (SELECT p.gross, p.reduced FROM student_year_points($2::date) p WHERE p.student_id = s.id) p ON true),
		d AS (SELECT id, LEAST($3::int, v * $4::int / 100 - off, v - red) AS points FROM t)
		INSERT INTO point_reductions (student_id, academic_year_start, points, policy, achievement_id, applied_on)
		SELECT d.id, $2::date, d.points, 'offset', $5, $6::date FROM d WHERE d.points > 0
		ON CONFLICT DO NOTHING
		RETURNING student_id, points`
	if err := tx.SelectContext(ctx, &rows, q, pq.Array(a.Students), start, a.Points, pol.OffsetCapPercent,
		achievementID, schoolday.Of(now)); err != nil {
		return nil, fmt.Errorf("pointspolicy: offset: %w", err)
	}
	out := make(map[int64]int, len(rows))
	changes := make([]points.Change, 0, len(rows))
	for _, r := range rows {
		out[r.StudentID] = r.Points
		changes = append(changes, points.Change{StudentID: r.StudentID, Action: points.ActionOffset, YearStart: start, Delta: -r.Points,
			Details: map[string]any{"policy": ModeOffset, "achievement_id": achievementID, "achievement_points": a.Points,
				"cap_percent": pol.OffsetCapPercent}})
	}
	if len(changes) == 0 {
		return out, nil
	}
	_, err = ledger.Apply(ctx, points.Batch{Changes: changes, Actor: actor, Source: points.SourceManual, UserID: actor.ID, Profile: &profile, Now: now})
	return out, err
}

// sweepActor is the audit actor of the amnesty sweep.
var sweepActor = audit.Actor{Name: "sistem (amnesti poin)"}

// amnestySQL finds, among the students $1 (all when NULL), those due an
// amnesty today ($2) in the year starting $3: active, a total above zero
// after reductions, and at least $4 school days (days with attendance
// recorded, school-wide) after the later of their latest violation of the
// year and their latest amnesty. $5 is the reduction; with $6 it writes
// the reductions (ON CONFLICT: once per period, whichever replica runs).
const amnestyCandidates = `WITH sd AS (SELECT DISTINCT date FROM attendance_days WHERE date >= $3::date AND date <= $2::date),
	t AS (
		SELECT s.id,
		    COALESCE((SELECT p.total FROM student_year_points($3::date) p WHERE p.student_id = s.id), 0) AS total,
		    GREATEST((SELECT max(v.occurred_on) FROM violations v WHERE v.student_id = s.id
		        AND v.occurred_on >= $3::date AND v.occurred_on <= $2::date),
		        (SELECT max(r.applied_on) FROM point_reductions r WHERE r.student_id = s.id
		        AND r.academic_year_start = $3::date AND r.policy = 'amnesty')) AS since
		FROM students s
		WHERE s.active AND ($1::bigint[] IS NULL OR s.id = ANY($1))
		  AND EXISTS (SELECT 1 FROM violations v WHERE v.student_id = s.id AND v.occurred_on >= $3::date AND v.occurred_on <= $2::date)),
	due AS (SELECT t.id, t.since, LEAST($5::int, t.total) AS points FROM t
		WHERE t.total > 0 AND (SELECT count(*) FROM sd WHERE sd.date > t.since) >= $4::int)`

// Sweep applies the amnesty policy to every student due one today (a no-op
// under another mode): one transaction, the students locked through the
// ledger, one reduction per student and clean period, one ledger batch. It
// answers how many students were reduced.
func Sweep(ctx context.Context, db *sqlx.DB, now time.Time) (int, error) {
	pol, err := Load(ctx, db)
	if err != nil || pol.Mode != ModeAmnesty {
		return 0, err
	}
	profile, err := school.LoadProfile(ctx, db)
	if err != nil {
		return 0, fmt.Errorf("pointspolicy: profile: %w", err)
	}
	today := schoolday.DateOf(now)
	start := profile.YearStartOf(today)
	args := func(ids any) []any {
		return []any{ids, today, start, pol.AmnestyCleanSchoolDays, pol.AmnestyPoints}
	}
	// Who may be due, without locks; then again under the locks.
	var ids []int64
	if err := db.SelectContext(ctx, &ids, amnestyCandidates+` SELECT id FROM due ORDER BY id`, args(nil)...); err != nil {
		return 0, fmt.Errorf("pointspolicy: amnesty candidates: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }()
	ledger, err := points.Lock(ctx, tx, ids)
	if err != nil {
		return 0, err
	}
	var rows []struct {
		StudentID int64          `db:"student_id"`
		Points    int            `db:"points"`
		Since     schoolday.Date `db:"period_start"`
	}
	if err := tx.SelectContext(ctx, &rows, amnestyCandidates+`
		INSERT INTO point_reductions (student_id, academic_year_start, points, policy, period_start, applied_on)
		SELECT due.id, $3::date, due.points, 'amnesty', due.since, $2::date FROM due
		ON CONFLICT DO NOTHING
		RETURNING student_id, points, period_start`, args(pq.Array(ids))...); err != nil {
		return 0, fmt.Errorf("pointspolicy: amnesty: %w", err)
	}
	changes := make([]points.Change, 0, len(rows))
	for _, r := range rows {
		changes = append(changes, points.Change{StudentID: r.StudentID, Action: points.ActionAmnesty, YearStart: start, Delta: -r.Points,
			Details: map[string]any{"policy": ModeAmnesty, "clean_school_days": pol.AmnestyCleanSchoolDays,
				"amnesty_points": pol.AmnestyPoints, "since": r.Since.String()}})
	}
	if len(changes) > 0 {
		if _, err := ledger.Apply(ctx, points.Batch{Changes: changes, Actor: sweepActor, Source: points.SourceManual, Profile: &profile, Now: now}); err != nil {
			return 0, err
		}
		if err := audit.Record(ctx, tx, sweepActor, "points_policy.amnesty", "setting", SettingsKey,
			map[string]any{"students": len(changes), "points": pol.AmnestyPoints, "clean_school_days": pol.AmnestyCleanSchoolDays}); err != nil {
			return 0, err
		}
	}
	return len(changes), tx.Commit()
}
