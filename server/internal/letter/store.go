package letter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Store reads warning letters and moves their status.
type Store struct {
	db *sqlx.DB
	// BaseURL is the server's address as people reach it
	// (TATIB_BASE_URL): the verification page's links start with it.
	BaseURL string
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
	wl.status, wl.issued_at, wl.printed_at, wl.signed_at, wl.delivered_at, wl.withdrawn_at, wl.withdrawn_reason,
	wl.number, wl.numbered_at, wl.verify_code,
	wl.levels_covered, wl.total_fallen_at IS NOT NULL AS total_fallen, wl.total_fallen_at, wl.sent_to_parent_at, wl.sent_level,
	(SELECT max(la.acknowledged_at) FROM letter_acknowledgements la WHERE la.letter_id = wl.id) AS acknowledged_at,
	COALESCE((SELECT string_agg(la.guardian_name, ', ' ORDER BY la.acknowledged_at) FROM letter_acknowledgements la WHERE la.letter_id = wl.id), '') AS acknowledged_by`

// scoped is true for every letter when $1 is 0, else only for a letter
// whose student is now in, or whose class (as issued) is, the class whose
// homeroom teacher is $1.
const scoped = `($1::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc
	WHERE hc.homeroom_teacher_id = $1 AND (hc.id = s.class_id OR hc.id = wl.class_id)))`

// finish derives what is not stored: the
// verification link, the academic year and whether the letter is past
// (current is the start of the year running now, as YYYY-MM-DD), the
// withdrawal reason in the request's language.
func (s *Store) finish(ctx context.Context, l *Letter, current string) {
	if l.VerifyCode != nil {
		u := s.VerifyURL(*l.VerifyCode)
		l.VerifyURL = &u
	}
	if start, err := schoolday.ParseDate(l.AcademicYearStart); err == nil {
		l.AcademicYear = YearLabel(start)
	}
	// Past: its year has ended and so had the letter's own working time.
	// A letter issued this year for last year's points (a violation of
	// June recorded in July) is worked this year like any other.
	l.PastYear = pastYear(l.AcademicYearStart, l.IssuedAt, current)
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
		s.finish(ctx, &out[i], current)
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
	const qe = `SELECT e.status, e.at, COALESCE(u.name, e.actor_name) AS actor_name, e.level, e.violation_id
		FROM warning_letter_events e LEFT JOIN users u ON u.id = e.actor_id
		WHERE e.letter_id = $1 ORDER BY e.at, e.id`
	if err := sqlx.SelectContext(ctx, q, &l.Events, qe, id); err != nil {
		return Letter{}, fmt.Errorf("letter: events: %w", err)
	}
	current, err := s.currentStart(ctx, q)
	if err != nil {
		return Letter{}, err
	}
	s.finish(ctx, &l, current)
	return l, nil
}

// SetStatus moves a letter one step forward to status (printed, signed or
// delivered), recording who and when, in its history and in the audit
// log. The row is locked, so two clicks at once move it once: the second
// finds it already there (409). Printed gives the letter its number when
// it has none; delivered waits until every earlier letter of the student's
// year is delivered or withdrawn, so no letter reaches a parent before the
// one it follows.
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
		if status == api.LetterDelivered {
			if err := earlierOpen(ctx, tx, l); err != nil {
				return err
			}
		}
		number := l.Number
		if status == api.LetterPrinted {
			got, err := assignNumbers(ctx, tx, []int64{id})
			if err != nil {
				return err
			}
			if a, ok := got[id]; ok {
				number = &a.Number
			}
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
		if status == api.LetterPrinted {
			if err := afterPrintTx(ctx, tx, []int64{id}, actor); err != nil {
				return err
			}
		}
		if err := audit.Record(ctx, tx, actor, "warning_letter.status", "warning_letter", strconv.FormatInt(id, 10), map[string]any{
			"from": l.Status, "to": status, "student_id": l.StudentID, "student": l.StudentName, "level": l.Level, "number": number,
		}); err != nil {
			return err
		}
		out, err = s.get(ctx, tx, sc, id, "")
		return err
	})
	return out, err
}

// earlierOpen refuses to deliver l while an earlier letter of the same
// student and academic year (a lower level, or issued before it) is still
// open: draft, printed or signed.
func earlierOpen(ctx context.Context, tx *sqlx.Tx, l Letter) error {
	var e struct {
		Level  int    `db:"level"`
		Name   string `db:"name"`
		Status string `db:"status"`
	}
	const q = `SELECT level, name, status FROM warning_letters
		WHERE student_id = $1 AND academic_year_start = $2::date AND id <> $3
		  AND status IN ('draft', 'printed', 'signed')
		  AND (level < $4 OR (issued_at, id) < ($5, $3))
		ORDER BY level, issued_at, id LIMIT 1`
	err := tx.GetContext(ctx, &e, q, l.StudentID, l.AcademicYearStart, l.ID, l.Level, l.IssuedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("letter: earlier letters: %w", err)
	}
	name := e.Name
	if strings.TrimSpace(name) == "" {
		name = "SP " + strconv.Itoa(e.Level)
	}
	return apperr.New(apperr.Conflict, "letter.status.earlier_open", "level", name, "status", statusKey(e.Status))
}

// statusKey names a status from the catalogue ("dicetak", "printed").
func statusKey(s string) locale.Key {
	return locale.Key("letter.status." + s)
}
