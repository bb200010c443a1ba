package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// DeviceCookieName is the browser's device cookie: set on a successful
// sign-in, sent back only to the sign-in route.
const DeviceCookieName = "tatib_device"

// Devices: a token is trusted for a year after its last successful sign-in,
// and a user keeps at most maxDevices (the oldest go first).
const (
	deviceTTL  = 365 * 24 * time.Hour
	maxDevices = 20
	devicePath = "/api/v1/auth/login"
)

// trustedDevice returns the id of the device whose token this is, when it
// signed in as username before and is still trusted; 0 otherwise (no
// token, another user's, expired): the attempt is then counted as from
// anywhere.
func (s *Service) trustedDevice(ctx context.Context, username, token string) (int64, error) {
	if token == "" || len(token) > 100 {
		return 0, nil
	}
	const q = `SELECT d.id FROM login_devices d JOIN users u ON u.id = d.user_id
		WHERE d.token_hash = $1 AND lower(u.username) = lower($2) AND d.last_used_at > $3`
	var id int64
	err := s.db.GetContext(ctx, &id, q, hashToken(token), username, s.now().Add(-deviceTTL))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("auth: device: %w", err)
	}
	return id, nil
}

// rememberDevice records a successful sign-in of user from device (0: a
// device not trusted yet, which gets a new token) and returns the token the
// device keeps ("" when the known device keeps its own).
func (s *Service) rememberDevice(ctx context.Context, user, device int64) (string, error) {
	now := s.now()
	if device != 0 {
		if _, err := s.db.ExecContext(ctx, `UPDATE login_devices SET last_used_at = $2 WHERE id = $1`, device, now); err != nil {
			return "", fmt.Errorf("auth: device: %w", err)
		}
		return "", nil
	}
	token := newToken()
	const q = `WITH ins AS (INSERT INTO login_devices (user_id, token_hash, created_at, last_used_at) VALUES ($1, $2, $3, $3) RETURNING id)
		DELETE FROM login_devices WHERE user_id = $1 AND id NOT IN (SELECT id FROM ins) AND id NOT IN (
			SELECT id FROM login_devices WHERE user_id = $1 ORDER BY last_used_at DESC, id DESC LIMIT $4)`
	if _, err := s.db.ExecContext(ctx, q, user, hashToken(token), now, maxDevices-1); err != nil {
		return "", fmt.Errorf("auth: device: %w", err)
	}
	return token, nil
}

func (s *Service) deviceCookie(token string) *http.Cookie {
	return &http.Cookie{Name: DeviceCookieName, Value: token, Path: devicePath, HttpOnly: true, Secure: s.opt.Secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int(deviceTTL.Seconds())}
}
