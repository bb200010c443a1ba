package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
)

// letterGuardian checks that guardianID is a verified guardian of the
// student of letter letterID (not withdrawn) within the homeroom scope.
func letterGuardian(ctx context.Context, q sqlx.QueryerContext, homeroom, letterID, guardianID int64) error {
	var one int
	err := sqlx.GetContext(ctx, q, &one, `SELECT 1 FROM warning_letters w
		JOIN guardian_students gs ON gs.student_id = w.student_id AND gs.guardian_id = $3 AND gs.status = 'verified'
		JOIN guardians g ON g.id = gs.guardian_id AND g.withdrawn_at IS NULL
		WHERE w.id = $2 AND w.status <> 'withdrawn' AND `+studentScope("w.student_id", "$1"), homeroom, letterID, guardianID)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "portal.guardian_not_found")
	}
	if err != nil {
		return fmt.Errorf("portal: letter guardian: %w", err)
	}
	return nil
}

// portalURL is where guardians open the portal.
func (h *Handler) portalURL(r *http.Request) string {
	if b := strings.TrimRight(h.d.Config.BaseURL, "/"); b != "" {
		return b + "/ortu/"
	}
	scheme := "http"
	if h.d.Config.Secure() {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/ortu/"
}

// letterActivation answers the warning letter's PDF carrying a new
// one-time activation code for one of the student's guardians (where no
// WhatsApp gateway sends sign-in codes): the code is issued as on the Wali
// Murid screen (an earlier unused one is voided; audited), the letter is
// downloaded as staff download it (numbered on its first download).
func (h *Handler) letterActivation(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.LetterActivationInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if in.GuardianID <= 0 {
		return apperr.Fields{"guardian_id": apperr.M("portal.guardian_required")}.Err()
	}
	ctx := r.Context()
	homeroom := auth.HomeroomID(ctx)
	if err := letterGuardian(ctx, h.d.DB, homeroom, id, in.GuardianID); err != nil {
		return err
	}
	prof, err := school.LoadProfile(ctx, h.d.DB)
	if err != nil {
		return err
	}
	logo, err := school.LoadLogo(ctx, h.d.DB)
	if err != nil {
		return err
	}
	actor := h.d.Auth.Actor(r)
	code, err := h.svc.IssueActivationCode(ctx, actor, homeroom, in.GuardianID)
	if err != nil {
		return err
	}
	act := &letter.Activation{URL: h.portalURL(r), Phone: code.Phone, Code: code.Code, ExpiresAt: code.ExpiresAt}
	b, ps, err := letter.NewStore(h.d.DB).Print(ctx, letter.Scope{HomeroomID: homeroom}, actor, []int64{id}, letter.PrintOptions{},
		func(ps []letter.Printout) ([]byte, error) {
			p := ps[0]
			p.Activation = act
			return letter.Render(p, prof, logo)
		})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", letter.ContentDisposition(letter.FileName(ps[0].Level, ps[0].StudentName, ps[0].IssuedAt)))
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}
