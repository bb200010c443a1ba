package auth

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

// userColumns are the columns of api.User.
const userColumns = `id, username, name, role, email, phone, active, last_login_at, created_at, updated_at`

var errBadCredentials = apperr.New(apperr.Unauthorized, "auth.bad_credentials")

// maxUsernameBytes bounds what a sign-in stores in login_failures; real
// usernames are at most 50 characters.
const maxUsernameBytes = 200

// maxUserAgentBytes is how much of the User-Agent a session keeps.
const maxUserAgentBytes = 300

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Login checks the credentials and opens a session. Every attempt is
// reserved as a failure before its password is checked (see reserve), so
// the throttle holds whatever the concurrency; past the limits the answer
// is RateLimited until the window has passed, whatever the password.
func (s *Service) Login(ctx context.Context, in api.LoginRequest, addr, userAgent string) (api.LoginResponse, error) {
	username := strings.TrimSpace(in.Username)
	f := apperr.Fields{}
	switch {
	case username == "":
		f.Add("username", "auth.username_required")
	case !cleanText(username) || len(username) > maxUsernameBytes:
		f.Add("username", "auth.username_invalid")
	}
	if in.Password == "" {
		f.Add("password", "auth.password_required")
	}
	if err := f.Err(); err != nil {
		return api.LoginResponse{}, err
	}
	addr = httpx.CleanHeader(addr, 100)

	var deviceToken string
	if in.DeviceToken != nil {
		deviceToken = *in.DeviceToken
	}
	device, err := s.trustedDevice(ctx, username, deviceToken)
	if err != nil {
		return api.LoginResponse{}, err
	}
	at, err := s.reserve(ctx, username, addr, device)
	if err != nil {
		return api.LoginResponse{}, err
	}
	u, checked, err := s.check(ctx, at, username, in.Password)
	if err != nil {
		if !checked {
			// Busy, or the client left: it must not count against the user.
			if werr := s.withdraw(ctx, at); werr != nil {
				return api.LoginResponse{}, werr
			}
		}
		return api.LoginResponse{}, err
	}

	token := newToken()
	now := s.now()
	const ins = `INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, user_agent, address) VALUES ($1, $2, $3, $3, $4, $5)`
	if _, err := s.db.ExecContext(ctx, ins, hashToken(token), u.ID, now, httpx.CleanHeader(userAgent, maxUserAgentBytes), addr); err != nil {
		return api.LoginResponse{}, fmt.Errorf("auth: create session: %w", err)
	}
	// Earlier failures stay until they leave the window: forgiving them
	// here would let a guesser racing the right password past the limit.
	if err := s.withdraw(ctx, at); err != nil {
		return api.LoginResponse{}, err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE users SET last_login_at = $2 WHERE id = $1`, u.ID, now); err != nil {
		return api.LoginResponse{}, fmt.Errorf("auth: last login: %w", err)
	}
	u.LastLoginAt = &now
	newDevice, err := s.rememberDevice(ctx, u.ID, device)
	if err != nil {
		return api.LoginResponse{}, err
	}
	perms, err := s.Permissions(ctx, u.Role)
	if err != nil {
		return api.LoginResponse{}, err
	}
	return api.LoginResponse{User: u, Permissions: perms, Token: token, ExpiresAt: now.Add(s.opt.MaxAge),
		DeviceToken: cmp.Or(newDevice, deviceToken)}, nil
}

// check returns the active user whose password pw is, or errBadCredentials;
// the reserved attempt at then stays as a failure. checked is false when it
// failed before any password was compared.
func (s *Service) check(ctx context.Context, at attempt, username, pw string) (u api.User, checked bool, err error) {
	var hash string
	const q = `SELECT ` + userColumns + `, password_hash FROM users WHERE lower(username) = lower($1)`
	err = s.db.QueryRowxContext(ctx, q, username).Scan(&u.ID, &u.Username, &u.Name, &u.Role, &u.Email, &u.Phone,
		&u.Active, &u.LastLoginAt, &u.CreatedAt, &u.UpdatedAt, &hash)
	switch {
	case errors.Is(err, sql.ErrNoRows) && at.addrLocked:
		s.imitateCheck(ctx)
		return api.User{}, true, errBadCredentials
	case errors.Is(err, sql.ErrNoRows):
		// A wrong username takes as long as a wrong password.
		if _, err := s.checkPassword(ctx, dummyHash(), pw); err != nil {
			return api.User{}, false, err
		}
		return api.User{}, true, errBadCredentials
	case err != nil:
		return api.User{}, false, fmt.Errorf("auth: login: %w", err)
	}
	ok, err := s.checkPassword(ctx, hash, pw)
	if err != nil {
		return api.User{}, false, err
	}
	if !ok || !u.Active {
		return api.User{}, true, errBadCredentials
	}
	return u, true, nil
}

// sessionSQL is the session check: the user of an unexpired session whose
// token hashes to $1 and who is active; $2 is the oldest last use an idle
// session may have, $3 the oldest start. It runs as the body of the
// function session_principal (migration 00197), sessionCall, whose plan
// PostgreSQL keeps per connection: sent as a query with its parameters it
// was planned on every request, which cost more than running it. A change
// here is a new migration replacing the function (a test compares them).
const sessionSQL = `SELECT u.id, u.username, u.name, u.role, u.email, u.phone, u.active, u.last_login_at, u.created_at, u.updated_at,
		s.last_seen_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND u.active AND s.last_seen_at > $2 AND s.created_at > $3`

// sessionCall runs sessionSQL as the function session_principal.
const sessionCall = `SELECT * FROM session_principal($1, $2, $3)`

// Authenticate returns the principal for a session token, or an
// Unauthorized error when the token is unknown, expired, or its user is
// inactive. It refreshes the idle timer.
func (s *Service) Authenticate(ctx context.Context, token string) (*Principal, error) {
	if token == "" {
		return nil, apperr.New(apperr.Unauthorized, "auth.sign_in_required")
	}
	h := hashToken(token)
	now := s.now()
	var u api.User
	var seen time.Time
	err := s.db.QueryRowxContext(ctx, sessionCall, h, now.Add(-s.opt.Idle), now.Add(-s.opt.MaxAge)).Scan(&u.ID, &u.Username, &u.Name,
		&u.Role, &u.Email, &u.Phone, &u.Active, &u.LastLoginAt, &u.CreatedAt, &u.UpdatedAt, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Unauthorized, "auth.session_expired")
	}
	if err != nil {
		return nil, fmt.Errorf("auth: authenticate: %w", err)
	}
	// Touch at most once a minute: the idle timer does not need more.
	if now.Sub(seen) > time.Minute {
		if _, err := s.db.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1`, h, now); err != nil {
			return nil, fmt.Errorf("auth: touch session: %w", err)
		}
	}
	return &Principal{User: u, TokenHash: h}, nil
}

// Logout ends the session with token hash h.
func (s *Service) Logout(ctx context.Context, h []byte) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, h); err != nil {
		return fmt.Errorf("auth: logout: %w", err)
	}
	return nil
}

// EndSessions ends every session of a user (deactivation, password reset),
// except keep when it is not nil.
func EndSessions(ctx context.Context, q interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, userID int64, keep []byte) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND ($2::bytea IS NULL OR token_hash <> $2)`, userID, keep); err != nil {
		return fmt.Errorf("auth: end sessions: %w", err)
	}
	return nil
}

// PruneSessions removes expired sessions and old sign-in failures.
func (s *Service) PruneSessions(ctx context.Context) error {
	now := s.now()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE last_seen_at < $1 OR created_at < $2`,
		now.Add(-s.opt.Idle), now.Add(-s.opt.MaxAge)); err != nil {
		return fmt.Errorf("auth: prune sessions: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM login_failures WHERE at < $1`, now.Add(-24*time.Hour)); err != nil {
		return fmt.Errorf("auth: prune failures: %w", err)
	}
	return nil
}
