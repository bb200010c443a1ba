package violation

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/points"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Correction is PATCH /violations/{id}: a wrong type, time, place,
// description or sanction put right in place, rather than a delete and a new
// recording (which the point audit would show as two changes). nil fields
// stay as they are.
type Correction struct {
	ID          int64
	TypeID      *int64
	OccurredAt  *time.Time
	Location    *string
	Description *string
	Sanction    *string
	// Scope: a homeroom teacher corrects as they record, for a student of
	// their class only.
	Scope Scope
	// Now is the clock (zero: time.Now()).
	Now time.Time
}

func (c *Correction) now() time.Time {
	if c.Now.IsZero() {
		return time.Now()
	}
	return c.Now
}

// Validate checks what needs no database: the texts' lengths (trimmed) and
// that the time is not in the future.
func (c *Correction) Validate(f apperr.Fields) {
	trim := func(p *string, field, key string, max int) {
		if p == nil {
			return
		}
		*p = strings.TrimSpace(*p)
		if utf8.RuneCountInString(*p) > max {
			f.Add(field, key, "max", max)
		}
	}
	trim(c.Location, "location", "violation.location.too_long", MaxLocation)
	trim(c.Description, "description", "violation.description.too_long", MaxDescription)
	trim(c.Sanction, "sanction", "violation.sanction.too_long", MaxSanction)
	if c.TypeID != nil && *c.TypeID <= 0 {
		f.Add("type_id", "violation.types.not_found", "id", *c.TypeID)
	}
	if c.OccurredAt != nil && c.OccurredAt.After(c.now().Add(futureSkew)) {
		f.Add("occurred_at", "violation.occurred_at.future")
	}
}

// stored is a violation as a correction reads and writes it.
type stored struct {
	StudentID   int64     `db:"student_id" json:"-"`
	TypeID      int64     `db:"violation_type_id" json:"type_id"`
	TypeName    string    `db:"type_name" json:"type"`
	Points      int       `db:"points" json:"points"`
	OccurredAt  time.Time `db:"occurred_at" json:"occurred_at"`
	Location    string    `db:"location" json:"location"`
	Description string    `db:"description" json:"description"`
	Sanction    string    `db:"sanction" json:"sanction"`
	Auto        bool      `db:"auto" json:"-"`
}

// Correct corrects a violation the caller may see, in one transaction: the
// student locked (points.Lock) before the row is read, the row updated (the
// points follow a new type's, copied now; the class stays the one of that
// day), and the change handed to the ledger as one point-audit entry
// "correct" with the violation before and after (letters settled,
// notifications "diperbaiki" to the recording's recipients), with an audit
// entry. An automatic violation is 422: attendance corrects it. A correction
// that changes nothing writes nothing.
func (s *Store) Correct(ctx context.Context, c Correction, actor audit.Actor) (api.CorrectViolationResponse, error) {
	out := api.CorrectViolationResponse{Letters: []api.LetterChange{}}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var studentID int64
		err := tx.GetContext(ctx, &studentID, `SELECT v.student_id FROM violations v JOIN students s ON s.id = v.student_id
			WHERE v.id = $1 AND `+scopeSQL(2), c.ID, c.Scope.HomeroomID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "violation.not_found")
		}
		if err != nil {
			return fmt.Errorf("violation: correct find: %w", err)
		}
		ledger, err := points.Lock(ctx, tx, []int64{studentID})
		if err != nil {
			return err
		}
		st, _ := ledger.Student(studentID)
		if c.Scope.HomeroomID != 0 && st.Homeroom != c.Scope.HomeroomID {
			return apperr.New(apperr.Forbidden, "violation.student.not_your_class")
		}
		var before stored
		err = tx.GetContext(ctx, &before, `SELECT v.student_id, v.violation_type_id, t.name AS type_name, v.points, v.occurred_at,
			    v.location, v.description, v.sanction, (v.auto_kind IS NOT NULL OR v.source = 'attendance') AS auto
			FROM violations v JOIN violation_types t ON t.id = v.violation_type_id WHERE v.id = $1`, c.ID)
		if errors.Is(err, sql.ErrNoRows) { // deleted meanwhile
			return apperr.New(apperr.NotFound, "violation.not_found")
		}
		if err != nil {
			return fmt.Errorf("violation: correct read: %w", err)
		}
		if before.Auto {
			return apperr.New(apperr.Invalid, "violation.correct.automatic")
		}
		after, err := s.corrected(ctx, tx, c, before)
		if err != nil {
			return err
		}
		profile, err := school.LoadProfile(ctx, tx)
		if err != nil {
			return fmt.Errorf("violation: profile: %w", err)
		}
		start := profile.YearStartOf(schoolday.DateOf(before.OccurredAt))
		if after != before {
			letters, err := s.write(ctx, tx, ledger, c, before, after, start, &profile, actor)
			if err != nil {
				return err
			}
			if out.Letters, err = points.DescribeTx(ctx, tx, letters, false); err != nil {
				return err
			}
		}
		vs, err := loadViolations(ctx, tx, []int64{c.ID})
		if err != nil {
			return err
		}
		out.Violation = vs[0]
		out.Points, err = Points(ctx, tx, studentID, c.now())
		return err
	})
	return out, err
}

// corrected is before with c applied, checked against the database: the
// type (existing, active, not an attendance type), the day (not before the
// earliest a recording takes, in the violation's own academic year).
func (s *Store) corrected(ctx context.Context, tx *sqlx.Tx, c Correction, before stored) (stored, error) {
	after := before
	f := apperr.Fields{}
	if c.TypeID != nil && *c.TypeID != before.TypeID {
		var t recType
		err := tx.GetContext(ctx, &t, `SELECT id, name, points, default_sanction, active, is_system FROM violation_types WHERE id = $1`, *c.TypeID)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			f.Add("type_id", "violation.types.not_found", "id", *c.TypeID)
		case err != nil:
			return after, fmt.Errorf("violation: correct type: %w", err)
		case t.System:
			f.Add("type_id", "violation.types.attendance", "name", t.Name)
		case !t.Active:
			f.Add("type_id", "violation.types.inactive", "name", t.Name)
		default:
			after.TypeID, after.TypeName, after.Points = t.ID, t.Name, t.Points
		}
	}
	if c.OccurredAt != nil && !c.OccurredAt.Equal(before.OccurredAt) {
		profile, err := school.LoadProfile(ctx, tx)
		if err != nil {
			return after, fmt.Errorf("violation: profile: %w", err)
		}
		day := schoolday.DateOf(*c.OccurredAt)
		switch earliest := earliestDay(profile, c.now()); {
		case day.Before(earliest):
			f.Add("occurred_at", "violation.occurred_at.too_old", "date", earliest.String())
		case profile.YearStartOf(day) != profile.YearStartOf(schoolday.DateOf(before.OccurredAt)):
			// Its points count in its year; moving them to another is a
			// delete there and a recording here.
			f.Add("occurred_at", "violation.correct.other_year")
		default:
			after.OccurredAt = *c.OccurredAt
		}
	}
	for _, x := range []struct {
		in  *string
		out *string
	}{{c.Location, &after.Location}, {c.Description, &after.Description}, {c.Sanction, &after.Sanction}} {
		if x.in != nil {
			*x.out = *x.in
		}
	}
	if len(f) > 0 {
		return after, invalid(f)
	}
	return after, nil
}

// write stores a correction: the row, the ledger's entry, the audit entry;
// it returns the letters the ledger changed.
func (s *Store) write(ctx context.Context, tx *sqlx.Tx, ledger *points.Ledger, c Correction, before, after stored, start schoolday.Date,
	profile *school.Profile, actor audit.Actor) (points.Letters, error) {
	day := schoolday.DateOf(after.OccurredAt)
	if _, err := tx.ExecContext(ctx, `UPDATE violations SET violation_type_id = $2, points = $3, occurred_at = $4, occurred_on = $5::date,
		    location = $6, description = $7, sanction = $8, updated_at = now()
		WHERE id = $1`, c.ID, after.TypeID, after.Points, after.OccurredAt, day.String(),
		after.Location, after.Description, after.Sanction); err != nil {
		return points.Letters{}, fmt.Errorf("violation: correct: %w", err)
	}
	changes := map[string]any{"before": before, "after": after}
	applied, err := ledger.Apply(ctx, points.Batch{Actor: actor, Source: points.SourceManual, UserID: actor.ID, Profile: profile,
		Now: c.Now, Changes: []points.Change{{StudentID: before.StudentID, ViolationID: c.ID, Action: points.ActionCorrect,
			YearStart: start, Delta: after.Points - before.Points, Day: day.String(), Details: changes}}})
	if err != nil {
		return points.Letters{}, err
	}
	k := points.Key{StudentID: before.StudentID, Start: start.String()}
	changes["total_before"], changes["total_after"] = applied.Before[k], applied.After[k]
	changes["letters"] = applied.Letters
	return applied.Letters, audit.Record(ctx, tx, actor, "violation.correct", "violation", strconv.FormatInt(c.ID, 10), changes)
}

func (h *Handler) correct(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var req api.CorrectViolationRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return err
	}
	c := Correction{ID: id, TypeID: req.TypeID, OccurredAt: req.OccurredAt, Location: req.Location, Description: req.Description,
		Sanction: req.Sanction, Scope: ScopeOf(r.Context())}
	f := apperr.Fields{}
	if c.Validate(f); len(f) > 0 {
		return invalid(f)
	}
	out, err := h.store.Correct(r.Context(), c, h.auth.Actor(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
