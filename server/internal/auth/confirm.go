package auth

import (
	"fmt"
	"net/http"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
)

// ConfirmPassword reports whether pw is the signed-in caller's own password,
// for acts that ask for it again (the application reset). It is guessed
// like a sign-in: the same throttle per username and address and the same
// bound on password checks, so a stolen session is no unthrottled password
// oracle. A throttled caller gets the sign-in's 429.
func (s *Service) ConfirmPassword(r *http.Request, pw string) (bool, error) {
	ctx := r.Context()
	p := From(ctx)
	if p == nil {
		return false, apperr.New(apperr.Unauthorized, "auth.sign_in_required")
	}
	var hash string
	if err := s.db.GetContext(ctx, &hash, `SELECT password_hash FROM users WHERE id = $1`, p.User.ID); err != nil {
		return false, fmt.Errorf("auth: confirm password: %w", err)
	}
	at, err := s.reserve(ctx, p.User.Username, httpx.ClientAddr(r, s.opt.TrustProxy), 0)
	if err != nil {
		return false, err
	}
	ok, err := s.checkPassword(ctx, hash, pw)
	if err != nil || ok {
		if werr := s.withdraw(ctx, at); werr != nil {
			return false, werr
		}
	}
	return ok, err
}
