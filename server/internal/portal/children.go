package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// What a guardian reads is scoped in SQL: every query joins the guardian's
// verified links ($1 is the guardian), so another family's id is simply
// not found.
// A student signed in is the viewer -id (Principal.viewer) and reaches
// their own record only.
const mine = `(EXISTS (SELECT 1 FROM guardian_students gs WHERE gs.guardian_id = $1 AND gs.student_id = %[1]s AND gs.status = 'verified') OR %[1]s = -$1::bigint)`

func ownedBy(col string) string { return fmt.Sprintf(mine, col) }

// mineStudent scopes a query whose student is $2 to the guardian $1.
const mineStudent = `(EXISTS (SELECT 1 FROM guardian_students gs WHERE gs.guardian_id = $1 AND gs.student_id = $2 AND gs.status = 'verified') OR $2 = -$1::bigint)`

// visibleLetter: a letter reaches the family when the school sends it
// (sent_to_parent_at) or marks it delivered, and never once withdrawn.
const visibleLetter = `wl.status <> 'withdrawn' AND (wl.sent_to_parent_at IS NOT NULL OR wl.status = 'delivered')`

func childNotFound() error { return apperr.New(apperr.NotFound, "portal.child_not_found") }

// yearBounds is the current academic year as dates.
func yearBounds(ctx context.Context, q sqlx.QueryerContext, now time.Time) (string, string, error) {
	start, end, err := violation.AcademicYear(ctx, q, now)
	if err != nil {
		return "", "", err
	}
	return start.String(), end.String(), nil
}

// Children lists the guardian's verified children with this year's points.
func Children(ctx context.Context, db *sqlx.DB, guardianID int64, now time.Time) ([]api.PortalChild, error) {
	from, to, err := yearBounds(ctx, db, now)
	if err != nil {
		return nil, err
	}
	const q = `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, COALESCE(gs.relation, '') AS relation,
		    COALESCE((SELECT sum(v.points) FROM violations v WHERE v.student_id = s.id AND v.occurred_on >= $2::date AND v.occurred_on < $3::date), 0) AS points
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		LEFT JOIN guardian_students gs ON gs.student_id = s.id AND gs.guardian_id = $1 AND gs.status = 'verified'
		WHERE s.id IN (SELECT student_id FROM guardian_students WHERE guardian_id = $1 AND status = 'verified') OR s.id = -$1::bigint
		ORDER BY s.full_name, s.id`
	out := []api.PortalChild{}
	if err := sqlx.SelectContext(ctx, db, &out, q, guardianID, from, to); err != nil {
		return nil, fmt.Errorf("portal: children: %w", err)
	}
	return out, nil
}

// Child is one child's page: standing, violations of the year, letters
// sent home, the year's attendance counts.
func Child(ctx context.Context, db *sqlx.DB, guardianID, studentID int64, now time.Time) (api.PortalChildDetail, error) {
	var d api.PortalChildDetail
	const head = `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, COALESCE(gs.relation, '') AS relation, 0 AS points
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		LEFT JOIN guardian_students gs ON gs.student_id = s.id AND gs.guardian_id = $1 AND gs.status = 'verified'
		WHERE s.id = $2 AND ` + mineStudent
	err := sqlx.GetContext(ctx, db, &d.PortalChild, head, guardianID, studentID)
	if errors.Is(err, sql.ErrNoRows) {
		return d, childNotFound()
	}
	if err != nil {
		return d, fmt.Errorf("portal: child: %w", err)
	}
	if d.Standing, err = violation.Points(ctx, db, studentID, now); err != nil {
		return d, err
	}
	d.Points = d.Standing.Total
	from, to, err := yearBounds(ctx, db, now)
	if err != nil {
		return d, err
	}
	d.Thresholds = []api.PortalThreshold{}
	if err := sqlx.SelectContext(ctx, db, &d.Thresholds, `SELECT level, name, min_points FROM sp_thresholds ORDER BY level`); err != nil {
		return d, fmt.Errorf("portal: thresholds: %w", err)
	}
	set, err := LoadSettings(ctx, db)
	if err != nil {
		return d, err
	}
	d.Shown = api.PortalParts{Violations: !set.HideViolations, Letters: !set.HideLetters, Attendance: !set.HideAttendance,
		Achievements: !set.HideAchievements}
	d.Violations, d.Letters, d.Achievements = []api.PortalViolation{}, []api.PortalLetter{}, []api.PortalAchievement{}
	// The points and the SP progress always show: they are the page.
	const vq = `SELECT v.id, to_char(v.occurred_on, 'YYYY-MM-DD') AS date, vt.name AS type, v.points, v.sanction, v.source = 'attendance' AS attendance,
		    CASE WHEN $5 THEN v.recorded_by_name ELSE '' END AS recorder
		FROM violations v JOIN violation_types vt ON vt.id = v.violation_type_id
		WHERE v.student_id = $2 AND ` + `v.occurred_on >= $3::date AND v.occurred_on < $4::date AND ` + mineStudent + `
		ORDER BY v.occurred_at DESC, v.id DESC LIMIT 200`
	if d.Shown.Violations {
		if err := sqlx.SelectContext(ctx, db, &d.Violations, vq, guardianID, studentID, from, to, set.ShowRecorder); err != nil {
			return d, fmt.Errorf("portal: violations: %w", err)
		}
	}
	const lq = `SELECT wl.id, wl.name, wl.level, wl.number, wl.issued_at, wl.sent_to_parent_at AS sent_at,
		    (SELECT a.acknowledged_at FROM letter_acknowledgements a WHERE a.letter_id = wl.id AND a.guardian_id = $1) AS acknowledged_at
		FROM warning_letters wl
		WHERE wl.student_id = $2 AND ` + visibleLetter + ` AND ` + mineStudent + `
		ORDER BY wl.issued_at DESC, wl.id DESC`
	if d.Shown.Letters {
		if err := sqlx.SelectContext(ctx, db, &d.Letters, lq, guardianID, studentID); err != nil {
			return d, fmt.Errorf("portal: letters: %w", err)
		}
	}
	const aq = `SELECT COALESCE(sum(h), 0) AS h, COALESCE(sum(s), 0) AS s, COALESCE(sum(i), 0) AS i, COALESCE(sum(a), 0) AS a, COALESCE(sum(t), 0) AS t
		FROM attendance_days WHERE student_id = $2 AND date >= $3::date AND date < $4::date AND ` + mineStudent
	if d.Shown.Attendance {
		if err := sqlx.GetContext(ctx, db, &d.Attendance, aq, guardianID, studentID, from, to); err != nil {
			return d, fmt.Errorf("portal: attendance: %w", err)
		}
	}
	// Achievements once a counselor verified them (issue 28: "the portal
	// shows them to guardians"), every year's, scoped like the rest.
	const xq = `SELECT a.id, to_char(a.achieved_on, 'YYYY-MM-DD') AS date, t.name AS type, a.level, a.points
		FROM achievements a JOIN achievement_students x ON x.achievement_id = a.id AND x.student_id = $2
		JOIN achievement_types t ON t.id = a.achievement_type_id
		WHERE a.verified_at IS NOT NULL AND ` + mineStudent + `
		ORDER BY a.achieved_on DESC, a.id DESC LIMIT 100`
	if d.Shown.Achievements {
		if err := sqlx.SelectContext(ctx, db, &d.Achievements, xq, guardianID, studentID); err != nil {
			return d, fmt.Errorf("portal: achievements: %w", err)
		}
	}
	return d, nil
}

// Attendance is a child's month, day by day with its hours.
func Attendance(ctx context.Context, db *sqlx.DB, guardianID, studentID int64, month string, now time.Time) ([]api.PortalAttendanceDay, error) {
	if month == "" {
		month = schoolday.DateOf(now).MonthString()
	}
	if _, err := schoolday.ParseMonth(month); err != nil {
		return nil, apperr.Fields{"month": apperr.M("portal.month_invalid")}.Err()
	}
	if err := own(ctx, db, guardianID, studentID); err != nil {
		return nil, err
	}
	if err := hidden(ctx, db, func(s api.PortalSettings) bool { return s.HideAttendance }); err != nil {
		return nil, err
	}
	var rows []struct {
		Date   string `db:"date"`
		Hour   int    `db:"lesson_hour"`
		Status string `db:"status"`
	}
	const q = `SELECT to_char(a.date, 'YYYY-MM-DD') AS date, a.lesson_hour, a.status FROM attendance a
		WHERE a.student_id = $2 AND a.date >= to_date($3, 'YYYY-MM') AND a.date < to_date($3, 'YYYY-MM') + interval '1 month' AND ` + mineStudent + `
		ORDER BY a.date, a.lesson_hour`
	if err := sqlx.SelectContext(ctx, db, &rows, q, guardianID, studentID, month); err != nil {
		return nil, fmt.Errorf("portal: attendance: %w", err)
	}
	out := []api.PortalAttendanceDay{}
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Date != r.Date {
			out = append(out, api.PortalAttendanceDay{Date: r.Date, Hours: []api.PortalAttendanceHour{}})
		}
		d := &out[len(out)-1]
		d.Hours = append(d.Hours, api.PortalAttendanceHour{Hour: r.Hour, Status: r.Status})
		switch r.Status {
		case "H":
			d.Counts.H++
		case "S":
			d.Counts.S++
		case "I":
			d.Counts.I++
		case "A":
			d.Counts.A++
		case "T":
			d.Counts.T++
		}
	}
	return out, nil
}

// own answers NotFound unless the student is the guardian's verified child.
func own(ctx context.Context, q sqlx.QueryerContext, guardianID, studentID int64) error {
	var ok bool
	if err := sqlx.GetContext(ctx, q, &ok, `SELECT `+mineStudent, guardianID, studentID); err != nil {
		return fmt.Errorf("portal: child: %w", err)
	}
	if !ok {
		return childNotFound()
	}
	return nil
}

// hidden answers 404 for a part the school does not show.
func hidden(ctx context.Context, q sqlx.QueryerContext, hide func(api.PortalSettings) bool) error {
	set, err := LoadSettings(ctx, q)
	if err != nil {
		return err
	}
	if hide(set) {
		return apperr.New(apperr.NotFound, "portal.part_hidden")
	}
	return nil
}

// letterOf returns the student of a letter the guardian may read.
func letterOf(ctx context.Context, q sqlx.QueryerContext, guardianID, letterID int64) (int64, error) {
	if err := hidden(ctx, q, func(s api.PortalSettings) bool { return s.HideLetters }); err != nil {
		return 0, err
	}
	var studentID int64
	err := sqlx.GetContext(ctx, q, &studentID, `SELECT wl.student_id FROM warning_letters wl
		WHERE wl.id = $2 AND `+visibleLetter+` AND `+ownedBy("wl.student_id"), guardianID, letterID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.New(apperr.NotFound, "portal.letter_not_found")
	}
	if err != nil {
		return 0, fmt.Errorf("portal: letter: %w", err)
	}
	return studentID, nil
}

// Acknowledge records "Saya sudah membaca" for a letter; again is a no-op
// that answers the first time.
func Acknowledge(ctx context.Context, db *sqlx.DB, p *Principal, letterID int64) (time.Time, error) {
	var at time.Time
	if err := p.guardianOnly(); err != nil {
		return at, err
	}
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if _, err := letterOf(ctx, tx, p.Guardian.ID, letterID); err != nil {
			return err
		}
		const ins = `INSERT INTO letter_acknowledgements (letter_id, guardian_id, guardian_name) VALUES ($1, $2, $3)
			ON CONFLICT (letter_id, guardian_id) DO UPDATE SET letter_id = EXCLUDED.letter_id
			RETURNING acknowledged_at, (xmax = 0) AS fresh`
		var fresh bool
		if err := tx.QueryRowxContext(ctx, ins, letterID, p.Guardian.ID, p.Guardian.Name).Scan(&at, &fresh); err != nil {
			return fmt.Errorf("portal: acknowledge: %w", err)
		}
		if !fresh {
			return nil
		}
		return audit.Record(ctx, tx, p.Actor(), "warning_letter.acknowledge", "warning_letter", strconv.FormatInt(letterID, 10), nil)
	})
	return at, err
}

// Messages are what the school sent to the guardian's phone about their
// children (sign-in codes left out), newest first.
func Messages(ctx context.Context, db *sqlx.DB, p *Principal) ([]api.PortalMessage, error) {
	if set, err := LoadSettings(ctx, db); err != nil || set.HideMessages {
		return []api.PortalMessage{}, err
	}
	q := `SELECT m.id, s.full_name AS student_name, m.event, m.body, m.sent_at
		FROM parent_messages m JOIN students s ON s.id = m.student_id
		WHERE m.phone = $2 AND m.status = 'sent' AND m.event <> 'portal_code' AND ` + ownedBy("m.student_id") + `
		ORDER BY m.sent_at DESC NULLS LAST, m.id DESC LIMIT 100`
	out := []api.PortalMessage{}
	if err := sqlx.SelectContext(ctx, db, &out, q, p.viewer(), p.Guardian.Phone); err != nil {
		return nil, fmt.Errorf("portal: messages: %w", err)
	}
	return out, nil
}
