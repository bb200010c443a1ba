package face

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

var (
	relationships = []string{api.FaceRelFather, api.FaceRelMother, api.FaceRelGuardian, api.FaceRelOther}
	methods       = []string{api.FaceMethodPaper, api.FaceMethodDigital, api.FaceMethodInPerson}
)

type consentRow struct {
	ID               int64      `db:"id"`
	GuardianName     string     `db:"guardian_name"`
	Relationship     string     `db:"relationship"`
	Method           string     `db:"method"`
	GivenOn          string     `db:"given_on"`
	Reference        string     `db:"reference"`
	RecordedByName   string     `db:"recorded_by_name"`
	RecordedAt       time.Time  `db:"recorded_at"`
	WithdrawnAt      *time.Time `db:"withdrawn_at"`
	WithdrawnByName  string     `db:"withdrawn_by_name"`
	WithdrawalReason string     `db:"withdrawal_reason"`
}

func (c consentRow) wire() api.FaceConsent {
	return api.FaceConsent{ID: c.ID, GuardianName: c.GuardianName, Relationship: c.Relationship, Method: c.Method,
		GivenOn: c.GivenOn, Reference: c.Reference, RecordedByName: c.RecordedByName, RecordedAt: c.RecordedAt,
		WithdrawnAt: c.WithdrawnAt, WithdrawnByName: c.WithdrawnByName, WithdrawalReason: c.WithdrawalReason}
}

// status reads a student's Face-ID status (the student already checked).
func status(ctx context.Context, q sqlx.QueryerContext, st student) (api.FaceStatus, error) {
	out := api.FaceStatus{StudentID: st.ID, StudentName: st.Name, History: []api.FaceConsent{}}
	var rows []consentRow
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT id, guardian_name, relationship, method, to_char(given_on, 'YYYY-MM-DD') AS given_on,
		reference, recorded_by_name, recorded_at, withdrawn_at, withdrawn_by_name, withdrawal_reason
		FROM face_consents WHERE student_id = $1 ORDER BY recorded_at DESC, id DESC`, st.ID); err != nil {
		return out, fmt.Errorf("face: consents: %w", err)
	}
	for _, c := range rows {
		w := c.wire()
		out.History = append(out.History, w)
		if c.WithdrawnAt == nil && out.Consent == nil {
			active := w
			out.Consent = &active
		}
	}
	var e struct {
		N     int        `db:"n"`
		Model string     `db:"model"`
		At    *time.Time `db:"at"`
	}
	if err := sqlx.GetContext(ctx, q, &e, `SELECT count(*) AS n, COALESCE(max(model), '') AS model, max(created_at) AS at
		FROM face_embeddings WHERE student_id = $1`, st.ID); err != nil {
		return out, fmt.Errorf("face: embeddings: %w", err)
	}
	out.Samples, out.Model, out.EnrolledAt = e.N, e.Model, e.At
	return out, nil
}

func (h *Handler) getStatus(w http.ResponseWriter, r *http.Request) error {
	id, err := studentID(r)
	if err != nil {
		return err
	}
	st, err := getStudent(r.Context(), h.db, auth.HomeroomID(r.Context()), id)
	if err != nil {
		return err
	}
	out, err := status(r.Context(), h.db, st)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// validateConsent checks a consent field by field and returns it trimmed.
func validateConsent(in api.FaceConsentInput, today string) (api.FaceConsentInput, error) {
	f := apperr.Fields{}
	in.GuardianName = strings.TrimSpace(in.GuardianName)
	in.Reference = strings.TrimSpace(in.Reference)
	in.GivenOn = strings.TrimSpace(in.GivenOn)
	switch n := utf8.RuneCountInString(in.GuardianName); {
	case n == 0:
		f.Add("guardian_name", "face.consent.guardian_required")
	case n > 120:
		f.Add("guardian_name", "face.field.too_long", "max", 120)
	}
	if !slices.Contains(relationships, in.Relationship) {
		f.Add("relationship", "face.consent.relationship")
	}
	if !slices.Contains(methods, in.Method) {
		f.Add("method", "face.consent.method")
	}
	if d, err := time.Parse(time.DateOnly, in.GivenOn); err != nil || d.Format(time.DateOnly) != in.GivenOn {
		f.Add("given_on", "face.consent.given_on_format")
	} else if in.GivenOn > today {
		f.Add("given_on", "face.consent.given_on_future")
	} else if d.Year() < 2000 {
		f.Add("given_on", "face.consent.given_on_old")
	}
	if utf8.RuneCountInString(in.Reference) > 200 {
		f.Add("reference", "face.field.too_long", "max", 200)
	}
	return in, f.Err()
}

// putConsent records the parent's consent, or corrects the active one
// (its embeddings stay).
func (h *Handler) putConsent(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := studentID(r)
	if err != nil {
		return err
	}
	var in api.FaceConsentInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	today, _ := jakartaDay(now())
	// The student first: one out of scope is 404 whatever the body says.
	if _, err := getStudent(ctx, h.db, auth.HomeroomID(ctx), id); err != nil {
		return err
	}
	if in, err = validateConsent(in, today); err != nil {
		return err
	}
	actor := h.auth.Actor(r)
	var out api.FaceStatus
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		st, err := lockStudent(ctx, tx, auth.HomeroomID(ctx), id)
		if err != nil {
			return err
		}
		var consentID int64
		corrected := true
		err = tx.GetContext(ctx, &consentID, `UPDATE face_consents SET guardian_name = $2, relationship = $3, method = $4,
			given_on = $5::date, reference = $6 WHERE student_id = $1 AND withdrawn_at IS NULL RETURNING id`,
			id, in.GuardianName, in.Relationship, in.Method, in.GivenOn, in.Reference)
		if pgNoRows(err) {
			corrected = false
			err = tx.GetContext(ctx, &consentID, `INSERT INTO face_consents (student_id, guardian_name, relationship, method, given_on,
				reference, recorded_by, recorded_by_name) VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8) RETURNING id`,
				id, in.GuardianName, in.Relationship, in.Method, in.GivenOn, in.Reference, userRef(actor), actor.Display())
		}
		if err != nil {
			return fmt.Errorf("face: save consent: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "face.consent_record", "student", strconv.FormatInt(id, 10), map[string]any{
			"consent_id": consentID, "corrected": corrected, "student": st.Name, "guardian_name": in.GuardianName,
			"relationship": in.Relationship, "method": in.Method, "given_on": in.GivenOn, "reference": in.Reference,
		}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// withdrawConsent withdraws the active consent and deletes the student's
// embeddings in the same transaction.
func (h *Handler) withdrawConsent(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := studentID(r)
	if err != nil {
		return err
	}
	// The body is optional: none, or {"reason": …}.
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return apperr.New(apperr.BadRequest, "request.unreadable")
	}
	var in api.FaceConsentWithdrawal
	if len(bytes.TrimSpace(body)) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err := httpx.DecodeJSON(r, &in); err != nil {
			return err
		}
	}
	in.Reason = strings.TrimSpace(in.Reason)
	if _, err := getStudent(ctx, h.db, auth.HomeroomID(ctx), id); err != nil {
		return err
	}
	if utf8.RuneCountInString(in.Reason) > 500 {
		return apperr.Fields{"reason": apperr.M("face.field.too_long", "max", 500)}.Err()
	}
	actor := h.auth.Actor(r)
	var out api.FaceStatus
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		st, err := lockStudent(ctx, tx, auth.HomeroomID(ctx), id)
		if err != nil {
			return err
		}
		var consentID int64
		err = tx.GetContext(ctx, &consentID, `UPDATE face_consents SET withdrawn_at = now(), withdrawn_by = $2, withdrawn_by_name = $3,
			withdrawal_reason = $4 WHERE student_id = $1 AND withdrawn_at IS NULL RETURNING id`, id, userRef(actor), actor.Display(), in.Reason)
		if pgNoRows(err) {
			return apperr.New(apperr.NotFound, "face.no_consent", "student", st.Name)
		}
		if err != nil {
			return fmt.Errorf("face: withdraw consent: %w", err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1`, id)
		if err != nil {
			return fmt.Errorf("face: delete embeddings: %w", err)
		}
		deleted, _ := res.RowsAffected()
		if err := audit.Record(ctx, tx, actor, "face.consent_withdraw", "student", strconv.FormatInt(id, 10), map[string]any{
			"consent_id": consentID, "student": st.Name, "reason": in.Reason, "embeddings_deleted": deleted,
		}); err != nil {
			return err
		}
		if err := erasure.Record(ctx, tx, erasure.FaceConsentWithdrawn, map[string]any{"student_id": id, "consent_id": consentID}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// userRef is the actor's user id for a REFERENCES users column (nil: the
// system or a kiosk).
func userRef(a audit.Actor) *int64 {
	if a.ID == 0 {
		return nil
	}
	return &a.ID
}
