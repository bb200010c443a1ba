package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// The excuse rules (docs/portal.md, "Excuses").
const (
	// ExcuseMaxDays is the longest excuse, in calendar days.
	ExcuseMaxDays = 14
	// ExcuseWindowDays: an excuse is for a day at most this far back or ahead.
	ExcuseWindowDays = 30
	// ExcusePendingMax bounds the requests a child may have waiting.
	ExcusePendingMax = 10
)

const excuseColumns = `e.id, e.student_id, s.full_name, COALESCE(c.name, ''), e.guardian_name, e.kind,
	to_char(e.date_from, 'YYYY-MM-DD'), to_char(e.date_to, 'YYYY-MM-DD'), e.lesson_hours, e.reason, e.status,
	e.decided_by_name, e.decided_at, e.refusal_reason, e.created_at,
	(SELECT count(*) FROM excuse_photos p WHERE p.excuse_id = e.id) AS photos`

const excuseFrom = ` FROM excuses e JOIN students s ON s.id = e.student_id LEFT JOIN classes c ON c.id = s.class_id`

func scanExcuses(rows *sqlx.Rows) ([]api.Excuse, error) {
	defer rows.Close()
	out := []api.Excuse{}
	for rows.Next() {
		var e api.Excuse
		var hours pq.Int64Array
		if err := rows.Scan(&e.ID, &e.StudentID, &e.StudentName, &e.ClassName, &e.GuardianName, &e.Kind, &e.From, &e.To, &hours,
			&e.Reason, &e.Status, &e.DecidedByName, &e.DecidedAt, &e.RefusalReason, &e.CreatedAt, &e.Photos); err != nil {
			return nil, fmt.Errorf("portal: excuses: %w", err)
		}
		for _, h := range hours {
			e.LessonHours = append(e.LessonHours, int(h))
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// validateExcuse checks a request against the school's day (lesson hours)
// and today (Jakarta).
func validateExcuse(in *api.ExcuseInput, hoursPerDay int, today schoolday.Date) (schoolday.Date, schoolday.Date, error) {
	f := apperr.Fields{}
	if in.Kind != api.ExcuseSakit && in.Kind != api.ExcuseIzin {
		f.Add("kind", "portal.excuse.kind")
	}
	if in.To == "" {
		in.To = in.From
	}
	from, err1 := schoolday.ParseDate(in.From)
	to, err2 := schoolday.ParseDate(in.To)
	switch {
	case err1 != nil:
		f.Add("from", "portal.excuse.date")
	case err2 != nil:
		f.Add("to", "portal.excuse.date")
	case to.Before(from):
		f.Add("to", "portal.excuse.order")
	case to.DaysSince(from) >= ExcuseMaxDays:
		f.Add("to", "portal.excuse.too_long", "max", ExcuseMaxDays)
	case from.Before(today.AddDays(-ExcuseWindowDays)) || to.After(today.AddDays(ExcuseWindowDays)):
		f.Add("from", "portal.excuse.window", "days", ExcuseWindowDays)
	}
	if len(in.LessonHours) > 0 {
		if err1 == nil && err2 == nil && from != to {
			f.Add("lesson_hours", "portal.excuse.hours_one_day")
		}
		seen := map[int]bool{}
		for _, h := range in.LessonHours {
			if h < 1 || h > hoursPerDay || seen[h] {
				f.Add("lesson_hours", "portal.excuse.hours", "max", hoursPerDay)
			}
			seen[h] = true
		}
		slices.Sort(in.LessonHours)
	}
	in.Reason = strings.TrimSpace(in.Reason)
	switch n := utf8.RuneCountInString(in.Reason); {
	case n == 0:
		f.Add("reason", "portal.excuse.reason_required")
	case n > 1000:
		f.Add("reason", "portal.too_long", "max", 1000)
	}
	return from, to, f.Err()
}

// SubmitExcuse stores a guardian's request for their child.
func SubmitExcuse(ctx context.Context, db *sqlx.DB, p *Principal, studentID int64, in api.ExcuseInput, photos []violation.Photo, now time.Time) (api.Excuse, error) {
	if err := p.guardianOnly(); err != nil {
		return api.Excuse{}, err
	}
	if err := own(ctx, db, p.Guardian.ID, studentID); err != nil {
		return api.Excuse{}, err
	}
	prof, err := school.LoadProfile(ctx, db)
	if err != nil {
		return api.Excuse{}, err
	}
	if _, _, err := validateExcuse(&in, prof.LessonHoursPerDay, schoolday.DateOf(now)); err != nil {
		return api.Excuse{}, err
	}
	var id int64
	err = pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		// The count and the insert under the student's row lock: two
		// racing requests cannot both pass the bound.
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM students WHERE id = $1 FOR UPDATE`, studentID); err != nil {
			return fmt.Errorf("portal: excuse lock: %w", err)
		}
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM excuses WHERE student_id = $1 AND status = 'pending'`, studentID); err != nil {
			return fmt.Errorf("portal: excuse count: %w", err)
		}
		if n >= ExcusePendingMax {
			return apperr.New(apperr.Conflict, "portal.excuse.too_many", "max", ExcusePendingMax)
		}
		var hours any
		if len(in.LessonHours) > 0 {
			hours = pq.Array(in.LessonHours)
		}
		const ins = `INSERT INTO excuses (student_id, guardian_id, guardian_name, kind, date_from, date_to, lesson_hours, reason)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`
		if err := tx.GetContext(ctx, &id, ins, studentID, p.Guardian.ID, p.Guardian.Name, in.Kind, in.From, in.To, hours, in.Reason); err != nil {
			return fmt.Errorf("portal: excuse: %w", err)
		}
		if err := insertExcusePhotos(ctx, tx, id, photos); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.Actor(), "excuse.submit", "excuse", strconv.FormatInt(id, 10),
			map[string]any{"student_id": studentID, "kind": in.Kind, "from": in.From, "to": in.To, "lesson_hours": in.LessonHours, "photos": len(photos)})
	})
	if err != nil {
		return api.Excuse{}, err
	}
	return getExcuse(ctx, db, 0, id)
}

// ChildExcuses lists a guardian's child's excuses, newest first.
func ChildExcuses(ctx context.Context, db *sqlx.DB, guardianID, studentID int64) ([]api.Excuse, error) {
	if err := own(ctx, db, guardianID, studentID); err != nil {
		return nil, err
	}
	rows, err := db.QueryxContext(ctx, `SELECT `+excuseColumns+excuseFrom+` WHERE e.student_id = $2 AND `+mineStudent+`
		ORDER BY e.created_at DESC, e.id DESC LIMIT 100`, guardianID, studentID)
	if err != nil {
		return nil, fmt.Errorf("portal: excuses: %w", err)
	}
	return scanExcuses(rows)
}

// ExcuseFilter selects the staff list.
type ExcuseFilter struct {
	Status   string
	ClassID  int64
	Homeroom int64
}

// ListExcuses lists excuses in the reader's scope (a homeroom teacher: their
// class), oldest pending first.
func ListExcuses(ctx context.Context, db *sqlx.DB, f ExcuseFilter) ([]api.Excuse, error) {
	rows, err := db.QueryxContext(ctx, `SELECT `+excuseColumns+excuseFrom+`
		WHERE ($2 = '' OR e.status = $2) AND ($3::bigint = 0 OR s.class_id = $3) AND `+studentScope("e.student_id", "$1")+`
		ORDER BY e.created_at, e.id LIMIT 500`, f.Homeroom, f.Status, f.ClassID)
	if err != nil {
		return nil, fmt.Errorf("portal: excuses: %w", err)
	}
	return scanExcuses(rows)
}

func getExcuse(ctx context.Context, q sqlx.QueryerContext, homeroom, id int64) (api.Excuse, error) {
	rows, err := q.QueryxContext(ctx, `SELECT `+excuseColumns+excuseFrom+` WHERE e.id = $2 AND `+studentScope("e.student_id", "$1"), homeroom, id)
	if err != nil {
		return api.Excuse{}, fmt.Errorf("portal: excuse: %w", err)
	}
	out, err := scanExcuses(rows)
	if err != nil {
		return api.Excuse{}, err
	}
	if len(out) == 0 {
		return api.Excuse{}, apperr.New(apperr.NotFound, "portal.excuse.not_found")
	}
	return out[0], nil
}

// lockPending locks a pending excuse in the staff member's scope.
func lockPending(ctx context.Context, tx *sqlx.Tx, homeroom, id int64) (api.Excuse, error) {
	var status string
	err := tx.GetContext(ctx, &status, `SELECT e.status FROM excuses e WHERE e.id = $2 AND `+studentScope("e.student_id", "$1")+` FOR UPDATE`, homeroom, id)
	if errors.Is(err, sql.ErrNoRows) {
		return api.Excuse{}, apperr.New(apperr.NotFound, "portal.excuse.not_found")
	}
	if err != nil {
		return api.Excuse{}, fmt.Errorf("portal: excuse: %w", err)
	}
	if status != api.ExcusePending {
		return api.Excuse{}, apperr.New(apperr.Conflict, "portal.excuse.decided")
	}
	return getExcuse(ctx, tx, homeroom, id)
}

// excuseEntries are the cells an approved excuse stores: its hours (or
// every lesson hour of the school day) of each day but Sunday, as S
// (sakit) or I (izin).
func excuseEntries(e api.Excuse, hoursPerDay int) []attendance.Entry {
	status := api.AttendanceExcused
	if e.Kind == api.ExcuseSakit {
		status = api.AttendanceSick
	}
	hours := e.LessonHours
	if len(hours) == 0 {
		for h := 1; h <= hoursPerDay; h++ {
			hours = append(hours, h)
		}
	}
	from, _ := time.Parse(time.DateOnly, e.From)
	to, _ := time.Parse(time.DateOnly, e.To)
	note := fmt.Sprintf("Izin orang tua #%d", e.ID)
	var out []attendance.Entry
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		if d.Weekday() == time.Sunday {
			continue
		}
		for _, h := range hours {
			out = append(out, attendance.Entry{StudentID: e.StudentID, Date: d.Format(time.DateOnly), LessonHour: h, Status: status, Notes: note})
		}
	}
	return out
}

// ApproveExcuse stores the excuse's hours as S or I set by the excuse
// (attendance.ApplyDetailedTx: the person's-entry path, which removes the
// automatic alpha violations of those hours through the points ledger),
// marks it approved and tells the guardian, in one transaction.
func ApproveExcuse(ctx context.Context, db *sqlx.DB, actor audit.Actor, homeroom, id int64) (api.ExcuseDecision, error) {
	var out api.ExcuseDecision
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		e, err := lockPending(ctx, tx, homeroom, id)
		if err != nil {
			return err
		}
		prof, err := school.LoadProfile(ctx, tx)
		if err != nil {
			return err
		}
		if entries := excuseEntries(e, prof.LessonHoursPerDay); len(entries) > 0 {
			res, err := attendance.ApplyDetailedTx(ctx, tx, entries, attendance.Origin{Excuse: true, UserID: actor.ID, Actor: actor})
			if err != nil {
				return err
			}
			out.Attendance = res.AttendanceResult
		}
		if err := decide(ctx, tx, actor, id, api.ExcuseApproved, ""); err != nil {
			return err
		}
		out.Excuse, err = getExcuse(ctx, tx, homeroom, id)
		return err
	})
	return out, err
}

// RefuseExcuse refuses with a reason and tells the guardian.
func RefuseExcuse(ctx context.Context, db *sqlx.DB, actor audit.Actor, homeroom, id int64, reason string) (api.Excuse, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return api.Excuse{}, apperr.Fields{"reason": apperr.M("portal.excuse.refusal_required")}.Err()
	}
	if utf8.RuneCountInString(reason) > 500 {
		return api.Excuse{}, apperr.Fields{"reason": apperr.M("portal.too_long", "max", 500)}.Err()
	}
	var out api.Excuse
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if _, err := lockPending(ctx, tx, homeroom, id); err != nil {
			return err
		}
		if err := decide(ctx, tx, actor, id, api.ExcuseRefused, reason); err != nil {
			return err
		}
		var err error
		out, err = getExcuse(ctx, tx, homeroom, id)
		return err
	})
	return out, err
}

func decide(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, id int64, status, reason string) error {
	const q = `UPDATE excuses SET status = $2, decided_by = NULLIF($3::bigint, 0), decided_by_name = $4, decided_at = now(), refusal_reason = $5 WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, status, actor.ID, actor.Display(), reason); err != nil {
		return fmt.Errorf("portal: decide excuse: %w", err)
	}
	if err := parentmsg.ExcuseDecisionTx(ctx, tx, id); err != nil {
		return err
	}
	action := "excuse.approve"
	if status == api.ExcuseRefused {
		action = "excuse.refuse"
	}
	return audit.Record(ctx, tx, actor, action, "excuse", strconv.FormatInt(id, 10), map[string]any{"reason": reason})
}
