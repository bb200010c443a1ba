package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/shared/api"
)

// userColumns are the columns of api.User.
const userColumns = `id, username, name, role, email, phone, active, last_login_at, created_at, updated_at`

var errBadCredentials = apperr.New(apperr.Unauthorized, "Nama pengguna atau kata sandi salah.")

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Login checks the credentials and opens a session. Failed attempts are
// counted per username and per client address; past the limits the answer
// is RateLimited until the window has passed, whatever the password.
func (s *Service) Login(ctx context.Context, in api.LoginRequest, addr, userAgent string) (api.LoginResponse, error) {
	username := strings.TrimSpace(in.Username)
	if f := (apperr.Fields{}); username == "" || in.Password == "" {
		if username == "" {
			f.Add("username", "Nama pengguna wajib diisi.")
		}
		if in.Password == "" {
			f.Add("password", "Kata sandi wajib diisi.")
		}
		return api.LoginResponse{}, f.Err()
	}
	if err := s.throttled(ctx, username, addr); err != nil {
		return api.LoginResponse{}, err
	}

	var u api.User
	var hash string
	const q = `SELECT ` + userColumns + `, password_hash FROM users WHERE lower(username) = lower($1)`
	err := s.db.QueryRowxContext(ctx, q, username).Scan(&u.ID, &u.Username, &u.Name, &u.Role, &u.Email, &u.Phone,
		&u.Active, &u.LastLoginAt, &u.CreatedAt, &u.UpdatedAt, &hash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		CheckPassword(dummyHash(), in.Password)
		return api.LoginResponse{}, s.fail(ctx, username, addr)
	case err != nil:
		return api.LoginResponse{}, fmt.Errorf("auth: login: %w", err)
	}
	if !CheckPassword(hash, in.Password) || !u.Active {
		return api.LoginResponse{}, s.fail(ctx, username, addr)
	}

	token := newToken()
	now := s.now()
	const ins = `INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, user_agent, address) VALUES ($1, $2, $3, $3, $4, $5)`
	if _, err := s.db.ExecContext(ctx, ins, hashToken(token), u.ID, now, truncate(userAgent, 300), addr); err != nil {
		return api.LoginResponse{}, fmt.Errorf("auth: create session: %w", err)
	}
	const clear = `DELETE FROM login_failures WHERE lower(username) = lower($1)`
	if _, err := s.db.ExecContext(ctx, clear, username); err != nil {
		return api.LoginResponse{}, fmt.Errorf("auth: clear failures: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE users SET last_login_at = $2 WHERE id = $1`, u.ID, now); err != nil {
		return api.LoginResponse{}, fmt.Errorf("auth: last login: %w", err)
	}
	u.LastLoginAt = &now
	perms, err := s.Permissions(ctx, u.Role)
	if err != nil {
		return api.LoginResponse{}, err
	}
	return api.LoginResponse{User: u, Permissions: perms, Token: token, ExpiresAt: now.Add(s.opt.MaxAge)}, nil
}

func (s *Service) fail(ctx context.Context, username, addr string) error {
	const q = `INSERT INTO login_failures (username, address, at) VALUES ($1, $2, $3)`
	if _, err := s.db.ExecContext(ctx, q, username, addr, s.now()); err != nil {
		return fmt.Errorf("auth: record failure: %w", err)
	}
	return errBadCredentials
}

// throttled refuses a sign-in when the username or the address has too many
// recent failures.
func (s *Service) throttled(ctx context.Context, username, addr string) error {
	since := s.now().Add(-s.opt.Window)
	const q = `SELECT
		(SELECT count(*) FROM login_failures WHERE lower(username) = lower($1) AND at > $3),
		(SELECT min(at) FROM login_failures WHERE lower(username) = lower($1) AND at > $3),
		(SELECT count(*) FROM login_failures WHERE address = $2 AND at > $3),
		(SELECT min(at) FROM login_failures WHERE address = $2 AND at > $3)`
	var nUser, nAddr int
	var firstUser, firstAddr sql.NullTime
	if err := s.db.QueryRowContext(ctx, q, username, addr, since).Scan(&nUser, &firstUser, &nAddr, &firstAddr); err != nil {
		return fmt.Errorf("auth: throttle: %w", err)
	}
	var first time.Time
	switch {
	case nUser >= s.opt.UserFailures:
		first = firstUser.Time
	case nAddr >= s.opt.AddrFailures:
		first = firstAddr.Time
	default:
		return nil
	}
	wait := first.Add(s.opt.Window).Sub(s.now())
	mins := int(math.Ceil(wait.Minutes()))
	return &apperr.Error{Code: apperr.RateLimited, RetryAfter: max(1, int(math.Ceil(wait.Seconds()))),
		Msg: apperr.M("auth.throttled", "minutes", max(1, mins))}
}

// Authenticate returns the principal for a session token, or an
// Unauthorized error when the token is unknown, expired, or its user is
// inactive. It refreshes the idle timer.
func (s *Service) Authenticate(ctx context.Context, token string) (*Principal, error) {
	if token == "" {
		return nil, apperr.New(apperr.Unauthorized, "Silakan masuk terlebih dahulu.")
	}
	h := hashToken(token)
	now := s.now()
	const q = `SELECT u.id, u.username, u.name, u.role, u.email, u.phone, u.active, u.last_login_at, u.created_at, u.updated_at,
		s.last_seen_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND u.active AND s.last_seen_at > $2 AND s.created_at > $3`
	var u api.User
	var seen time.Time
	err := s.db.QueryRowxContext(ctx, q, h, now.Add(-s.opt.Idle), now.Add(-s.opt.MaxAge)).Scan(&u.ID, &u.Username, &u.Name,
		&u.Role, &u.Email, &u.Phone, &u.Active, &u.LastLoginAt, &u.CreatedAt, &u.UpdatedAt, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.Unauthorized, "Sesi Anda telah berakhir. Silakan masuk kembali.")
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

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
