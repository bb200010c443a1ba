// Package auth signs users in, keeps their sessions in PostgreSQL, decides
// what each role may do and enforces it in front of every route.
package auth

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// PortalTokenPrefix starts every portal session token: the staff
// middleware never looks such a token up (docs/portal.md).
const PortalTokenPrefix = "ortu_"

// CookieName is the browser session cookie.
const CookieName = "tatib_session"

// Options are the session settings.
type Options struct {
	Idle       time.Duration
	MaxAge     time.Duration
	Secure     bool // cookies get Secure
	TrustProxy bool
	// Throttle limits; zero values take the documented defaults.
	UserFailures int
	AddrFailures int
	Window       time.Duration
	// PasswordChecks is how many password checks (bcrypt) may run at once;
	// zero takes max(2, GOMAXPROCS). PasswordWait is how long a sign-in
	// waits for a free slot before the answer is 503; zero takes 2s.
	PasswordChecks int
	PasswordWait   time.Duration
}

// Service is the authentication and authorisation service.
type Service struct {
	db    *sqlx.DB
	opt   Options
	log   *slog.Logger
	perms *permCache
	now   func() time.Time

	checkSlots chan struct{}
	checks     atomic.Int64 // password checks run, for tests
	checkNanos atomic.Int64 // duration of the latest password check
}

// New returns a Service. Call Listen to receive permission changes made by
// other replicas.
func New(db *sqlx.DB, opt Options, log *slog.Logger) *Service {
	if opt.UserFailures == 0 {
		opt.UserFailures = 5
	}
	if opt.AddrFailures == 0 {
		opt.AddrFailures = 20
	}
	if opt.Window == 0 {
		opt.Window = 15 * time.Minute
	}
	if opt.PasswordChecks == 0 {
		opt.PasswordChecks = max(2, runtime.GOMAXPROCS(0))
	}
	if opt.PasswordWait == 0 {
		opt.PasswordWait = 2 * time.Second
	}
	return &Service{db: db, opt: opt, log: log, perms: newPermCache(), now: time.Now,
		checkSlots: make(chan struct{}, opt.PasswordChecks)}
}

// Principal is the signed-in user of a request.
type Principal struct {
	User      api.User
	TokenHash []byte
	ViaCookie bool
}

type ctxKey int

const principalKey ctxKey = 1

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// From returns the request's principal, or nil when nobody is signed in.
func From(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey).(*Principal)
	return p
}

// UserFrom returns the signed-in user; the zero User when nobody is.
func UserFrom(ctx context.Context) api.User {
	if p := From(ctx); p != nil {
		return p.User
	}
	return api.User{}
}

// IsHomeroomTeacher reports whether the caller's data must be scoped to
// their own class.
func IsHomeroomTeacher(ctx context.Context) bool {
	return UserFrom(ctx).Role == perm.WaliKelas
}

// HomeroomID is the user id a homeroom teacher's queries are scoped by
// (their class is the one whose homeroom_teacher_id it is), or 0 for
// everyone else: the one rule every feature's Scope is built from.
func HomeroomID(ctx context.Context) int64 {
	if IsHomeroomTeacher(ctx) {
		return UserFrom(ctx).ID
	}
	return 0
}

// Actor returns the audit actor of a request.
func (s *Service) Actor(r *http.Request) audit.Actor {
	u := UserFrom(r.Context())
	return audit.Actor{ID: u.ID, Name: u.Username, DisplayName: u.Name, Address: httpx.ClientAddr(r, s.opt.TrustProxy)}
}
