package auth

import (
	"net/http"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/perm"
)

// BearerToken returns the token of an "Authorization: Bearer" header.
func BearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// Middleware identifies the caller from a bearer token or the session
// cookie. It lets anonymous requests through; Guard decides what they may
// reach. Cookie requests that change state from another site are refused
// (Go's CrossOriginProtection); bearer-token requests carry no ambient
// credential and are not subject to it.
func (s *Service) Middleware(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := BearerToken(r)
		viaCookie := false
		if token == "" {
			if err := cop.Check(r); err != nil {
				httpx.Error(w, r, apperr.New(apperr.Forbidden, "auth.cross_site"))
				return
			}
			if c, err := r.Cookie(CookieName); err == nil {
				token, viaCookie = c.Value, true
			}
		}
		// A gate kiosk's device token ("kiosk_…") is no session: the face
		// package checks it on its own routes, and it opens nothing else.
		// Nor is a portal token ("ortu_…"): it opens /portal/* only.
		if token != "" && !strings.HasPrefix(token, "kiosk_") && !strings.HasPrefix(token, PortalTokenPrefix) {
			p, err := s.Authenticate(r.Context(), token)
			if err == nil {
				p.ViaCookie = viaCookie
				httpx.SetLogUser(r.Context(), p.User.Username)
				r = r.WithContext(WithPrincipal(r.Context(), p))
			} else if apperr.Code(err) != apperr.Unauthorized {
				httpx.Error(w, r, err)
				return
			} else if viaCookie {
				// A stale cookie: forget it so the browser stops sending it.
				http.SetCookie(w, s.clearCookie())
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Guard enforces permission p: Public lets everyone through, Authenticated
// needs a signed-in user, any other name needs a role that has it.
func (s *Service) Guard(p perm.Name) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		// A portal route is public to the staff guard: the portal package
		// wraps each of its handlers in its own session check.
		if p == perm.Public || p == perm.Guardian {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			pr := From(r.Context())
			if pr == nil {
				httpx.Error(w, r, apperr.New(apperr.Unauthorized, "auth.sign_in_required"))
				return
			}
			if p != perm.Authenticated {
				ok, err := s.Can(r.Context(), pr.User.Role, p)
				if err != nil {
					httpx.Error(w, r, err)
					return
				}
				if !ok {
					httpx.Error(w, r, Denied(p))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Denied is the 403 for a missing permission; it names what was refused.
func Denied(p perm.Name) error {
	label := locale.Texts{locale.ID: string(p), locale.EN: string(p)}
	if c, ok := perm.Lookup(p); ok {
		label = locale.Texts{locale.ID: c.Label, locale.EN: c.LabelEN}
	}
	// The permission's code stays in message_code's parameters for
	// programs; people read its label.
	return apperr.New(apperr.Forbidden, "auth.permission_denied", "permission", label, "code", string(p))
}

func (s *Service) cookie(token string) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: token, Path: "/", HttpOnly: true, Secure: s.opt.Secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(s.opt.MaxAge.Seconds())}
}

func (s *Service) clearCookie() *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: "", Path: "/", HttpOnly: true, Secure: s.opt.Secure,
		SameSite: http.SameSiteLaxMode, MaxAge: -1}
}
