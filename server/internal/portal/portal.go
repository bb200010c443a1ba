// Package portal is the family side of Tatib (docs/portal.md): guardians,
// their children, sign-in by one-time code and portal sessions, which are
// apart from staff sessions: their own table, cookie and token prefix.
package portal

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

// CookieName is the portal's session cookie, never the staff one.
const CookieName = "tatib_portal"

// The sign-in rules (docs/portal.md, "Sign-in").
const (
	CodeTTL       = 5 * time.Minute
	ActivationTTL = 7 * 24 * time.Hour
	MaxTries      = 5
	// ThrottleWindow bounds code requests: PhoneRequests per phone and
	// AddrRequests per address, known phones and unknown alike.
	ThrottleWindow = 15 * time.Minute
	PhoneRequests  = 3
	AddrRequests   = 20
	// A portal session lives on the guardian's phone: long, but not forever.
	SessionIdle   = 60 * 24 * time.Hour
	SessionMaxAge = 365 * 24 * time.Hour
)

// Consent channels.
const (
	ChannelWhatsApp   = "whatsapp_code"
	ChannelActivation = "activation_code"
)

// Principal is the signed-in guardian of a portal request, or a student
// (StudentID set, Guardian.ID 0) when the school lets students in.
type Principal struct {
	Guardian  api.PortalGuardian
	StudentID int64
	TokenHash []byte
	Address   string
}

// viewer is the $1 of every scoped portal query: the guardian's id, or
// minus the student's own id (ids are positive, so the two never meet).
func (p *Principal) viewer() int64 {
	if p.StudentID != 0 {
		return -p.StudentID
	}
	return p.Guardian.ID
}

// guardianOnly refuses a student what only a guardian does (excuses,
// acknowledgements, consent).
func (p *Principal) guardianOnly() error {
	if p.StudentID != 0 {
		return apperr.New(apperr.Forbidden, "portal.guardian_only")
	}
	return nil
}

type ctxKey int

const principalKey ctxKey = 1

// From returns the request's guardian, or nil.
func From(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey).(*Principal)
	return p
}

// Actor is the guardian as the audit log names them.
func (p *Principal) Actor() audit.Actor {
	if p.StudentID != 0 {
		return audit.Actor{Name: fmt.Sprintf("siswa:%d", p.StudentID), DisplayName: p.Guardian.Name, Address: p.Address}
	}
	return audit.Actor{Name: fmt.Sprintf("wali:%d", p.Guardian.ID), DisplayName: p.Guardian.Name, Address: p.Address}
}

// Service signs guardians in and keeps their sessions.
type Service struct {
	db         *sqlx.DB
	trustProxy bool
	secure     bool
	now        func() time.Time
}

// NewService returns a Service.
func NewService(db *sqlx.DB, trustProxy, secure bool) *Service {
	return &Service{db: db, trustProxy: trustProxy, secure: secure, now: time.Now}
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return auth.PortalTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// newCode returns n random decimal digits.
func newCode(n int) string {
	var b strings.Builder
	for range n {
		d, _ := rand.Int(rand.Reader, big.NewInt(10))
		b.WriteByte(byte('0' + d.Int64()))
	}
	return b.String()
}

// hashCode keeps a code as a random salt and the SHA-256 of salt and code:
// the table never holds a code, and equal codes never hash alike.
func hashCode(code string) []byte {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	sum := sha256.Sum256(append(append([]byte{}, salt...), code...))
	return append(salt, sum[:]...)
}

func codeMatches(stored []byte, code string) bool {
	if len(stored) != 16+sha256.Size {
		return false
	}
	sum := sha256.Sum256(append(append([]byte{}, stored[:16]...), code...))
	return subtle.ConstantTimeCompare(sum[:], stored[16:]) == 1
}

// token reads a portal token: a bearer token with the portal prefix, or
// the portal cookie. A staff token or cookie is never one.
func token(r *http.Request) string {
	if t := auth.BearerToken(r); t != "" {
		if strings.HasPrefix(t, auth.PortalTokenPrefix) {
			return t
		}
		return ""
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return c.Value
	}
	return ""
}

// Guard runs h for a signed-in guardian only; anyone else gets 401.
func (s *Service) Guard(h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		t := token(r)
		if t == "" {
			return apperr.New(apperr.Unauthorized, "portal.sign_in_required")
		}
		p, err := s.Authenticate(r.Context(), t)
		if err != nil {
			if apperr.Code(err) == apperr.Unauthorized {
				if _, cerr := r.Cookie(CookieName); cerr == nil {
					http.SetCookie(w, s.cookie("", -1))
				}
			}
			return err
		}
		p.Address = httpx.ClientAddr(r, s.trustProxy)
		httpx.SetLogUser(r.Context(), p.Actor().Name)
		return h(w, r.WithContext(context.WithValue(r.Context(), principalKey, p)))
	}
}

// Authenticate returns the guardian of a portal token. A closed account
// (consent withdrawn) has no sessions.
func (s *Service) Authenticate(ctx context.Context, token string) (*Principal, error) {
	h := hashToken(token)
	now := s.now()
	// A student's session lives only while the school lets students in.
	const q = `SELECT COALESCE(g.id, 0), COALESCE(g.name, st.full_name), COALESCE(g.phone, ''), g.consent_at,
		    COALESCE(g.consent_channel, ''), COALESCE(st.id, 0), s.last_seen_at
		FROM portal_sessions s LEFT JOIN guardians g ON g.id = s.guardian_id LEFT JOIN students st ON st.id = s.student_id
		WHERE s.token_hash = $1 AND s.last_seen_at > $2 AND s.created_at > $3
		  AND ((g.id IS NOT NULL AND g.withdrawn_at IS NULL)
		       OR (st.id IS NOT NULL AND st.active AND ` + studentsOnSQL + `))`
	var p Principal
	var seen time.Time
	err := s.db.QueryRowxContext(ctx, q, h, now.Add(-SessionIdle), now.Add(-SessionMaxAge)).Scan(&p.Guardian.ID,
		&p.Guardian.Name, &p.Guardian.Phone, &p.Guardian.ConsentAt, &p.Guardian.ConsentChannel, &p.StudentID, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Unauthorized, "portal.session_expired")
	}
	if err != nil {
		return nil, fmt.Errorf("portal: authenticate: %w", err)
	}
	if now.Sub(seen) > time.Minute {
		if _, err := s.db.ExecContext(ctx, `UPDATE portal_sessions SET last_seen_at = $2 WHERE token_hash = $1`, h, now); err != nil {
			return nil, fmt.Errorf("portal: touch session: %w", err)
		}
	}
	p.TokenHash = h
	p.Guardian.StudentID = p.StudentID
	return &p, nil
}

func (s *Service) cookie(token string, maxAge int) *http.Cookie {
	// The cookie goes to the portal's routes only: staff routes never see it.
	return &http.Cookie{Name: CookieName, Value: token, Path: "/api/v1/portal", HttpOnly: true, Secure: s.secure,
		SameSite: http.SameSiteLaxMode, MaxAge: maxAge}
}
