package face

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
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

func (h *Handler) getStatus(w http.ResponseWriter, r *http.Request) error {
	id, err := studentID(r)
	if err != nil {
		return err
	}
	out, err := h.store.Status(r.Context(), auth.HomeroomID(r.Context()), id)
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
	if _, err := h.store.Student(ctx, auth.HomeroomID(ctx), id); err != nil {
		return err
	}
	if in, err = validateConsent(in, today); err != nil {
		return err
	}
	out, err := h.store.SaveConsent(ctx, h.auth.Actor(r), auth.HomeroomID(ctx), id, in)
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
	if _, err := h.store.Student(ctx, auth.HomeroomID(ctx), id); err != nil {
		return err
	}
	if utf8.RuneCountInString(in.Reason) > 500 {
		return apperr.Fields{"reason": apperr.M("face.field.too_long", "max", 500)}.Err()
	}
	out, err := h.store.WithdrawConsent(ctx, h.auth.Actor(r), auth.HomeroomID(ctx), id, in.Reason)
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
