package letter

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
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// Store reads warning letters and moves their status.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store on db.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// columns of a letter with its student; the scope condition below needs
// the aliases wl and s. The colour is the threshold's for the level now
// (thresholds are keyed by level), red when there is none.
const columns = `wl.id, wl.student_id, s.full_name AS student_name, s.nisn AS student_nisn,
	wl.class_id, wl.class_name, wl.level, wl.name, wl.min_points,
	COALESCE((SELECT NULLIF(th.colour, '') FROM sp_thresholds th WHERE th.level = wl.level), 'red') AS colour,
	to_char(wl.academic_year_start, 'YYYY-MM-DD') AS academic_year_start, wl.points, wl.violation_id,
	wl.status, wl.issued_at, wl.printed_at, wl.signed_at, wl.delivered_at, wl.withdrawn_at, wl.withdrawn_reason`

// scoped is true for every letter when $1 is 0, else only for a letter
// whose student is now in, or whose class (as issued) is, the class whose
// homeroom teacher is $1.
const scoped = `($1::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc
	WHERE hc.homeroom_teacher_id = $1 AND (hc.id = s.class_id OR hc.id = wl.class_id)))`

// finish derives what is not stored: the number, the academic year and
// whether the letter is past (current is the start of the year running
// now, as YYYY-MM-DD), the withdrawal reason in the request's language.
func finish(ctx context.Context, l *Letter, current string) {
	l.Number = Number(l.ID, l.Level, l.IssuedAt)
	if start, err := time.Parse(time.DateOnly, l.AcademicYearStart); err == nil {
		l.AcademicYear = YearLabel(start)
	}
	// Past: its year has ended and so had the letter's own working time.
	// A letter issued this year for last year's points (a violation of
	// June recorded in July) is worked this year like any other.
	l.PastYear = l.AcademicYearStart < current && l.IssuedAt.In(jakarta).Format(time.DateOnly) < current
	if l.WithdrawnReason != "" && locale.Has(l.WithdrawnReason) {
		l.WithdrawnReason = locale.T(ctx, l.WithdrawnReason)
	}
}

// List returns a page of letters, newest first, and the number of letters
// the filter matches.
func (s *Store) List(ctx context.Context, sc Scope, f Filter, limit, offset int) ([]Letter, int, error) {
	const where = ` FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		WHERE ` + scoped + `
		  AND ($2::bigint = 0 OR wl.student_id = $2)
		  AND ($3::int = 0 OR wl.level = $3)
		  AND ($4::bigint = 0 OR wl.class_id = $4)
		  AND ($5::text = '' OR wl.status = $5)
		  AND ($6::date IS NULL OR wl.issued_at >= ($6::date)::timestamp AT TIME ZONE 'Asia/Jakarta')
		  AND ($7::date IS NULL OR wl.issued_at < ($7::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta')
		  AND ($8::int = 0 OR extract(year FROM wl.academic_year_start)::int = $8)`
	args := []any{sc.HomeroomID, f.StudentID, f.Level, f.ClassID, f.Status, day(f.From), day(f.To), f.AcademicYear}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*)`+where, args...); err != nil {
		return nil, 0, fmt.Errorf("letter: count: %w", err)
	}
	out := []Letter{}
	q := `SELECT ` + columns + where + ` ORDER BY wl.issued_at DESC, wl.id DESC LIMIT $9 OFFSET $10`
	if err := s.db.SelectContext(ctx, &out, q, append(args, limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("letter: list: %w", err)
	}
	current, err := s.currentStart(ctx, s.db)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		finish(ctx, &out[i], current)
	}
	return out, total, nil
}

// day is t as a date parameter, or nil.
func day(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.Format(time.DateOnly)
}

func notFound(id int64) error {
	return apperr.New(apperr.NotFound, "letter.not_found", "id", id)
}

// Get returns one letter the caller may see, with its status history.
func (s *Store) Get(ctx context.Context, sc Scope, id int64) (Letter, error) {
	return s.get(ctx, s.db, sc, id, "")
}

func (s *Store) get(ctx context.Context, q sqlx.QueryerContext, sc Scope, id int64, lock string) (Letter, error) {
	var l Letter
	err := sqlx.GetContext(ctx, q, &l, `SELECT `+columns+`
		FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		WHERE `+scoped+` AND wl.id = $2`+lock, sc.HomeroomID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Letter{}, notFound(id)
	}
	if err != nil {
		return Letter{}, fmt.Errorf("letter: get: %w", err)
	}
	// The history names the actor by their current name; the stored name
	// (the username at the time) when the account is gone.
	l.Events = []api.WarningLetterEvent{}
	const qe = `SELECT e.status, e.at, COALESCE(u.name, e.actor_name) AS actor_name
		FROM warning_letter_events e LEFT JOIN users u ON u.id = e.actor_id
		WHERE e.letter_id = $1 ORDER BY e.at, e.id`
	if err := sqlx.SelectContext(ctx, q, &l.Events, qe, id); err != nil {
		return Letter{}, fmt.Errorf("letter: events: %w", err)
	}
	current, err := s.currentStart(ctx, q)
	if err != nil {
		return Letter{}, err
	}
	finish(ctx, &l, current)
	return l, nil
}

// SetStatus moves a letter one step forward to status (printed, signed or
// delivered), recording who and when, in its history and in the audit
// log. The row is locked, so two clicks at once move it once: the second
// finds it already there (409).
func (s *Store) SetStatus(ctx context.Context, sc Scope, actor audit.Actor, id int64, status string) (Letter, error) {
	if status != api.LetterPrinted && status != api.LetterSigned && status != api.LetterDelivered {
		return Letter{}, apperr.New(apperr.Invalid, "letter.status.invalid").
			WithField("status", "letter.status.choose")
	}
	var out Letter
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		l, err := s.get(ctx, tx, sc, id, ` FOR UPDATE OF wl`)
		if err != nil {
			return err
		}
		switch next := nextStatus(l.Status); {
		case l.PastYear:
			// Points and the SP ladder started again with the new
			// academic year; a letter of a year that has ended is a
			// record now, not work (docs/data-safety.md).
			return apperr.New(apperr.Conflict, "letter.past_year", "year", l.AcademicYear)
		case l.Status == api.LetterWithdrawn:
			return apperr.New(apperr.Conflict, "letter.status.withdrawn")
		case l.Status == status:
			return apperr.New(apperr.Conflict, "letter.status.already", "status", statusKey(status))
		case next == "":
			return apperr.New(apperr.Conflict, "letter.status.done", "status", statusKey(l.Status))
		case next != status:
			return apperr.New(apperr.Conflict, "letter.status.step",
				"from", statusKey(l.Status), "to", statusKey(status), "next", statusKey(next))
		}
		var actorID *int64
		if actor.ID != 0 {
			actorID = &actor.ID
		}
		const q = `UPDATE warning_letters SET status = $2, updated_at = now(),
			printed_at = CASE WHEN $2 = 'printed' THEN now() ELSE printed_at END,
			printed_by = CASE WHEN $2 = 'printed' THEN $3 ELSE printed_by END,
			signed_at = CASE WHEN $2 = 'signed' THEN now() ELSE signed_at END,
			signed_by = CASE WHEN $2 = 'signed' THEN $3 ELSE signed_by END,
			delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END,
			delivered_by = CASE WHEN $2 = 'delivered' THEN $3 ELSE delivered_by END
			WHERE id = $1`
		if _, err := tx.ExecContext(ctx, q, id, status, actorID); err != nil {
			return fmt.Errorf("letter: set status: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name)
			VALUES ($1, $2, $3, $4)`, id, status, actorID, actor.Display()); err != nil {
			return fmt.Errorf("letter: event: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "warning_letter.status", "warning_letter", strconv.FormatInt(id, 10), map[string]any{
			"from": l.Status, "to": status, "student_id": l.StudentID, "student": l.StudentName, "level": l.Level, "number": l.Number,
		}); err != nil {
			return err
		}
		out, err = s.get(ctx, tx, sc, id, "")
		return err
	})
	return out, err
}

// statusKey names a status from the catalogue ("dicetak", "printed").
func statusKey(s string) locale.Key {
	return locale.Key("letter.status." + s)
}

// Violation is one row of the letter's table of violations.
type Violation struct {
	OccurredOn time.Time `db:"occurred_on"`
	TypeName   string    `db:"type_name"`
	Points     int       `db:"points"`
}

// Printout is what the PDF of a letter shows beyond the letter itself.
type Printout struct {
	Letter
	StudentNIS     string `db:"student_nis"`
	ParentName     string `db:"parent_name"`
	CurrentClass   string `db:"current_class"`
	HomeroomName   string `db:"homeroom_name"`
	ThresholdText  string `db:"threshold_text"`
	ThresholdFound bool   `db:"threshold_found"`
	Violations     []Violation
}

// Printout loads a letter the caller may see with what its PDF shows: the
// student's parent, the homeroom teacher of the letter's class (else of the
// student's class now), the threshold's current text, and the violations
// that led to it (the student's violations of that academic year recorded
// up to the letter's issue).
func (s *Store) Printout(ctx context.Context, sc Scope, id int64) (Printout, error) {
	var p Printout
	err := s.db.GetContext(ctx, &p, `SELECT `+columns+`, s.nis AS student_nis, s.parent_name,
		COALESCE(cc.name, '') AS current_class,
		COALESCE((SELECT u.name FROM classes hc JOIN users u ON u.id = hc.homeroom_teacher_id
		          WHERE hc.id = COALESCE(wl.class_id, s.class_id)), '') AS homeroom_name,
		COALESCE(t.default_text, '') AS threshold_text, t.id IS NOT NULL AS threshold_found
		FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		LEFT JOIN classes cc ON cc.id = s.class_id
		LEFT JOIN sp_thresholds t ON t.level = wl.level
		WHERE `+scoped+` AND wl.id = $2`, sc.HomeroomID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Printout{}, notFound(id)
	}
	if err != nil {
		return Printout{}, fmt.Errorf("letter: printout: %w", err)
	}
	current, err := s.currentStart(ctx, s.db)
	if err != nil {
		return Printout{}, err
	}
	finish(ctx, &p.Letter, current)
	p.Violations = []Violation{}
	const qv = `SELECT v.occurred_on, vt.name AS type_name, v.points
		FROM violations v JOIN violation_types vt ON vt.id = v.violation_type_id
		JOIN warning_letters wl ON wl.id = $1
		WHERE v.student_id = wl.student_id
		  AND v.occurred_on >= wl.academic_year_start AND v.occurred_on < wl.academic_year_start + interval '1 year'
		  AND v.created_at <= wl.issued_at
		ORDER BY v.occurred_at, v.id`
	if err := s.db.SelectContext(ctx, &p.Violations, qv, id); err != nil {
		return Printout{}, fmt.Errorf("letter: violations: %w", err)
	}
	return p, nil
}
