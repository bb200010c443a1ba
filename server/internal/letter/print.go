package letter

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// MaxBatch bounds the letters one batch print takes: a week of a large
// school's drafts, and a PDF a school printer still swallows.
const MaxBatch = 200

// Violation is one row of the letter's table of violations.
type Violation struct {
	OccurredOn time.Time `db:"occurred_on"`
	TypeName   string    `db:"type_name"`
	Points     int       `db:"points"`
	// AutoHours is the number of lesson hours an automatic alpha or late
	// violation was counted from; nil for the others.
	AutoHours *int `db:"auto_hours"`
}

// Printout is what the PDF of a letter shows beyond the letter itself.
type Printout struct {
	Letter
	StudentNIS     string `db:"student_nis"`
	ParentName     string `db:"parent_name"`
	CurrentClass   string `db:"current_class"`
	HomeroomName   string `db:"homeroom_name"`
	HomeroomNIP    string `db:"homeroom_nip"`
	ThresholdText  string `db:"threshold_text"`
	ThresholdFound bool   `db:"threshold_found"`
	// EarlierDelivered: a letter of a lower level of the student's year was
	// delivered (only then may the text say one was received).
	EarlierDelivered bool `db:"earlier_delivered"`
	// Reduced is the points the points policy took off the letter's year
	// (point_reductions) up to the letter's last raise.
	Reduced    int `db:"reduced"`
	Violations []Violation
	// Policy is the points policy in force when printed (every letter
	// states it: docs/achievements.md).
	Policy pointspolicy.Policy `db:"-"`
	// Activation, when set, prints a guardian's one-time portal activation
	// code under the signatures (the family portal, where no WhatsApp
	// gateway sends sign-in codes: docs/portal.md).
	Activation *Activation `db:"-"`
}

// Activation is a guardian's portal activation code as a letter prints it.
type Activation struct {
	// URL is where the portal is (…/ortu/); Phone the guardian's number.
	URL, Phone, Code string
	ExpiresAt        time.Time
}

// printouts loads the letters of ids the caller may see with what their
// PDFs show, in print order (class, student, level): the student's parent,
// the homeroom teacher of the letter's class (else of the student's class
// now) with their NIP, the threshold's current text, and the violations
// that led to each letter (the student's violations of that academic year
// recorded up to the letter's issue, or its last raise), and whether a
// lower letter of that year was delivered.
func (s *Store) printouts(ctx context.Context, q sqlx.QueryerContext, sc Scope, ids []int64) ([]Printout, error) {
	out := []Printout{}
	err := sqlx.SelectContext(ctx, q, &out, `SELECT `+columns+`, s.nis AS student_nis, s.parent_name,
		COALESCE(cc.name, '') AS current_class,
		COALESCE(hu.name, '') AS homeroom_name, COALESCE(hu.nip, '') AS homeroom_nip,
		COALESCE(t.default_text, '') AS threshold_text, t.id IS NOT NULL AS threshold_found,
		EXISTS (SELECT 1 FROM warning_letters e WHERE e.student_id = wl.student_id AND e.academic_year_start = wl.academic_year_start
		    AND e.status = 'delivered' AND e.level < wl.levels_covered[1]) AS earlier_delivered,
		COALESCE((SELECT sum(r.points) FROM point_reductions r WHERE r.student_id = wl.student_id
		    AND r.academic_year_start = wl.academic_year_start
		    AND r.created_at <= GREATEST(wl.issued_at, (SELECT max(e.at) FROM warning_letter_events e
		        WHERE e.letter_id = wl.id AND e.status = 'raised'))), 0) AS reduced
		FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		LEFT JOIN classes cc ON cc.id = s.class_id
		LEFT JOIN classes hc ON hc.id = COALESCE(wl.class_id, s.class_id)
		LEFT JOIN users hu ON hu.id = hc.homeroom_teacher_id
		LEFT JOIN sp_thresholds t ON t.level = wl.level
		WHERE `+scoped+` AND wl.id = ANY($2)
		ORDER BY COALESCE(NULLIF(wl.class_name, ''), cc.name, ''), s.full_name, wl.level, wl.id`, sc.HomeroomID, pq.Array(ids))
	if err != nil {
		return nil, fmt.Errorf("letter: printouts: %w", err)
	}
	current, err := s.currentStart(ctx, q)
	if err != nil {
		return nil, err
	}
	policy, err := pointspolicy.Load(ctx, q)
	if err != nil {
		return nil, err
	}
	at := map[int64]int{}
	for i := range out {
		out[i].Policy = policy
		s.finish(ctx, &out[i].Letter, current)
		out[i].Violations = []Violation{}
		at[out[i].ID] = i
	}
	var rows []struct {
		LetterID int64 `db:"letter_id"`
		Violation
	}
	const qv = `SELECT wl.id AS letter_id, v.occurred_on, vt.name AS type_name, v.points, v.auto_hours
		FROM warning_letters wl
		JOIN violations v ON v.student_id = wl.student_id
		  AND v.occurred_on >= wl.academic_year_start AND v.occurred_on < wl.academic_year_start + interval '1 year'
		  AND v.created_at <= GREATEST(wl.issued_at, (SELECT max(e.at) FROM warning_letter_events e
		      WHERE e.letter_id = wl.id AND e.status = 'raised'))
		JOIN violation_types vt ON vt.id = v.violation_type_id
		WHERE wl.id = ANY($1)
		ORDER BY wl.id, v.occurred_at, v.id`
	if err := sqlx.SelectContext(ctx, q, &rows, qv, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("letter: violations: %w", err)
	}
	for _, r := range rows {
		if i, ok := at[r.LetterID]; ok {
			out[i].Violations = append(out[i].Violations, r.Violation)
		}
	}
	return out, nil
}

// Printout loads one letter the caller may see with what its PDF shows.
func (s *Store) Printout(ctx context.Context, sc Scope, id int64) (Printout, error) {
	ps, err := s.printouts(ctx, s.db, sc, []int64{id})
	if err != nil {
		return Printout{}, err
	}
	if len(ps) == 0 {
		return Printout{}, notFound(id)
	}
	return ps[0], nil
}

// PrintOptions say what a print does beyond numbering.
type PrintOptions struct {
	// Batch: the letters were printed on paper (POST /warning-letters/print):
	// drafts move to printed, withdrawn letters are refused.
	Batch bool
}

// Renderer makes the PDF of the printouts.
type Renderer func([]Printout) ([]byte, error)

// Print makes the PDF of the letters of ids the caller may see, in one
// transaction: each letter without a number (and not withdrawn) gets its
// number and verification code, a batch moves its drafts to printed (with
// their history and audit entries), and render makes the PDF from what is
// then stored. A render that fails leaves nothing changed. ids are
// distinct.
func (s *Store) Print(ctx context.Context, sc Scope, actor audit.Actor, ids []int64, o PrintOptions, render Renderer) ([]byte, []Printout, error) {
	var pdf []byte
	var ps []Printout
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var locked []struct {
			ID                int64     `db:"id"`
			Status            string    `db:"status"`
			Level             int       `db:"level"`
			Name              string    `db:"name"`
			Student           string    `db:"student"`
			AcademicYearStart string    `db:"academic_year_start"`
			IssuedAt          time.Time `db:"issued_at"`
		}
		// Locked in id order, so two prints of overlapping letters queue
		// rather than deadlock.
		const q = `SELECT wl.id, wl.status, wl.level, wl.name, s.full_name AS student,
			to_char(wl.academic_year_start, 'YYYY-MM-DD') AS academic_year_start, wl.issued_at
			FROM warning_letters wl JOIN students s ON s.id = wl.student_id
			WHERE ` + scoped + ` AND wl.id = ANY($2) ORDER BY wl.id FOR UPDATE OF wl`
		if err := tx.SelectContext(ctx, &locked, q, sc.HomeroomID, pq.Array(ids)); err != nil {
			return fmt.Errorf("letter: lock for print: %w", err)
		}
		found := map[int64]bool{}
		for _, l := range locked {
			found[l.ID] = true
		}
		for _, id := range ids {
			if !found[id] {
				return notFound(id)
			}
		}
		current, err := s.currentStart(ctx, tx)
		if err != nil {
			return err
		}
		var drafts []int64
		from := map[int64]string{}
		for _, l := range locked {
			from[l.ID] = l.Status
			if !o.Batch {
				continue
			}
			switch {
			case l.Status == api.LetterWithdrawn:
				return apperr.New(apperr.Conflict, "letter.print.withdrawn", "student", l.Student, "level", l.Name)
			case l.Status == api.LetterDraft && !pastYear(l.AcademicYearStart, l.IssuedAt, current):
				drafts = append(drafts, l.ID)
			}
		}
		numbers, err := assignNumbers(ctx, tx, ids)
		if err != nil {
			return err
		}
		if len(drafts) > 0 {
			if err := markPrinted(ctx, tx, actor, drafts); err != nil {
				return err
			}
			if err := afterPrintTx(ctx, tx, drafts, actor); err != nil {
				return err
			}
		}
		// One audit entry per letter that changed.
		var changed []string
		var details []any
		action := "warning_letter.number"
		if o.Batch {
			action = "warning_letter.print"
		}
		for _, l := range locked {
			a, numbered := numbers[l.ID]
			moved := slices.Contains(drafts, l.ID)
			if !numbered && !moved {
				continue
			}
			d := map[string]any{"student": l.Student, "level": l.Level}
			if numbered {
				d["number"] = a.Number
			}
			if moved {
				d["from"], d["to"] = from[l.ID], api.LetterPrinted
			}
			if o.Batch {
				d["batch"] = len(ids)
			}
			changed = append(changed, strconv.FormatInt(l.ID, 10))
			details = append(details, d)
		}
		if err := audit.RecordEach(ctx, tx, actor, action, "warning_letter", changed, details); err != nil {
			return err
		}
		if ps, err = s.printouts(ctx, tx, sc, ids); err != nil {
			return err
		}
		pdf, err = render(ps)
		return err
	})
	return pdf, ps, err
}

// markPrinted moves the drafts of ids to printed, with their history.
func markPrinted(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, ids []int64) error {
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	const q = `UPDATE warning_letters SET status = 'printed', printed_at = now(), printed_by = $2, updated_at = now()
		WHERE id = ANY($1) AND status = 'draft'`
	if _, err := tx.ExecContext(ctx, q, pq.Array(ids), actorID); err != nil {
		return fmt.Errorf("letter: mark printed: %w", err)
	}
	const qe = `INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name)
		SELECT id, 'printed', $2, $3 FROM unnest($1::bigint[]) AS u(id) ORDER BY id`
	if _, err := tx.ExecContext(ctx, qe, pq.Array(ids), actorID, actor.Display()); err != nil {
		return fmt.Errorf("letter: printed events: %w", err)
	}
	return nil
}

// pastYear is true for a letter of an academic year that has ended and
// whose own working time has too (see finish): it prints, its status no
// longer moves.
func pastYear(yearStart string, issued time.Time, current string) bool {
	return yearStart < current && schoolday.Of(issued) < current
}

// VerifyURL is the public verification page of code.
func (s *Store) VerifyURL(code string) string {
	return strings.TrimRight(s.BaseURL, "/") + VerifyPath + code
}

// VerifyPath is where the verification page is served, followed by the
// code.
const VerifyPath = "/verifikasi/"
