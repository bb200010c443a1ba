package portal

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/netguard"
	"github.com/tatib/tatib/shared/api"
)

// PushInterval is how often the push worker looks for news.
const PushInterval = 30 * time.Second

var b64 = base64.RawURLEncoding

// vapidKey returns the server's VAPID key pair, generating and storing it
// on first use (two replicas racing keep the first one stored).
func vapidKey(ctx context.Context, db sqlx.ExtContext) (*ecdsa.PrivateKey, string, error) {
	var row struct {
		Private []byte `db:"private_key"`
		Public  string `db:"public_key"`
	}
	err := sqlx.GetContext(ctx, db, &row, `SELECT private_key, public_key FROM portal_push_keys`)
	if errors.Is(err, sql.ErrNoRows) {
		k, gerr := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if gerr != nil {
			return nil, "", fmt.Errorf("portal: vapid key: %w", gerr)
		}
		der, merr := x509.MarshalECPrivateKey(k)
		if merr != nil {
			return nil, "", fmt.Errorf("portal: vapid key: %w", merr)
		}
		pub, perr := k.PublicKey.ECDH()
		if perr != nil {
			return nil, "", fmt.Errorf("portal: vapid key: %w", perr)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO portal_push_keys (private_key, public_key) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			der, b64.EncodeToString(pub.Bytes())); err != nil {
			return nil, "", fmt.Errorf("portal: vapid key: %w", err)
		}
		err = sqlx.GetContext(ctx, db, &row, `SELECT private_key, public_key FROM portal_push_keys`)
	}
	if err != nil {
		return nil, "", fmt.Errorf("portal: vapid key: %w", err)
	}
	k, err := x509.ParseECPrivateKey(row.Private)
	if err != nil {
		return nil, "", fmt.Errorf("portal: vapid key: %w", err)
	}
	return k, row.Public, nil
}

// PublicPushKey is the key browsers subscribe with.
func PublicPushKey(ctx context.Context, db *sqlx.DB) (api.PushKey, error) {
	_, pub, err := vapidKey(ctx, db)
	return api.PushKey{PublicKey: pub}, err
}

// Subscribe stores (or moves to this guardian) a browser's subscription.
func Subscribe(ctx context.Context, db *sqlx.DB, p *Principal, in api.PushSubscription) error {
	if err := p.guardianOnly(); err != nil {
		return err
	}
	f := apperr.Fields{}
	u, err := url.Parse(in.Endpoint)
	switch {
	case err != nil || u.Host == "" || len(in.Endpoint) > 1000:
		f.Add("endpoint", "portal.push.endpoint")
	case u.Scheme != "https" && !(u.Scheme == "http" && netguard.LocalAllowed()):
		f.Add("endpoint", "portal.push.endpoint")
	}
	if k, err := b64.DecodeString(strings.TrimRight(in.Keys.P256dh, "=")); err != nil || len(k) != 65 {
		f.Add("keys.p256dh", "portal.push.keys")
	}
	if a, err := b64.DecodeString(strings.TrimRight(in.Keys.Auth, "=")); err != nil || len(a) != 16 {
		f.Add("keys.auth", "portal.push.keys")
	}
	if err := f.Err(); err != nil {
		return err
	}
	const q = `INSERT INTO portal_push_subscriptions (guardian_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
		ON CONFLICT (endpoint) DO UPDATE SET guardian_id = EXCLUDED.guardian_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, failures = 0`
	if _, err := db.ExecContext(ctx, q, p.Guardian.ID, in.Endpoint, in.Keys.P256dh, in.Keys.Auth); err != nil {
		return fmt.Errorf("portal: subscribe: %w", err)
	}
	return nil
}

// vapidAuth is the Authorization header of a push to endpoint (RFC 8292):
// an ES256 JWT for the endpoint's origin, valid 12 hours, and the key.
func vapidAuth(k *ecdsa.PrivateKey, pub, endpoint, subject string, now time.Time) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", err
	}
	head := b64.EncodeToString([]byte(`{"typ":"JWT","alg":"ES256"}`))
	claims, _ := json.Marshal(map[string]any{"aud": u.Scheme + "://" + u.Host, "exp": now.Add(12 * time.Hour).Unix(), "sub": subject})
	signing := head + "." + b64.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rand.Reader, k, sum[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return "vapid t=" + signing + "." + b64.EncodeToString(sig) + ", k=" + pub, nil
}

// Pusher sends the portal's pushes: a subscription whose guardian has news
// (a violation recorded, a letter sent, an excuse decided for one of their
// verified children) since its last push gets one empty push.
type Pusher struct {
	DB      *sqlx.DB
	Client  *http.Client
	Subject string // mailto: or https: contact of the school (RFC 8292)
	Now     func() time.Time
	Log     *slog.Logger
}

// PushOnce pushes every subscription with news and returns how many it sent.
func (p *Pusher) PushOnce(ctx context.Context) (int, error) {
	now := p.Now()
	// The database's clock stamps the news; the scan's start becomes each
	// pushed subscription's last_pushed_at, so news written during the scan
	// is pushed next time, never lost.
	var scanned time.Time
	if err := p.DB.GetContext(ctx, &scanned, `SELECT now()`); err != nil {
		return 0, fmt.Errorf("portal: push: %w", err)
	}
	var subs []struct {
		ID       int64     `db:"id"`
		Endpoint string    `db:"endpoint"`
		Last     time.Time `db:"last_pushed_at"`
	}
	q := `SELECT ps.id, ps.endpoint, ps.last_pushed_at FROM portal_push_subscriptions ps
		JOIN guardians g ON g.id = ps.guardian_id AND g.withdrawn_at IS NULL
		WHERE EXISTS (SELECT 1 FROM guardian_students gs WHERE gs.guardian_id = g.id AND gs.status = 'verified' AND (
		        EXISTS (SELECT 1 FROM violations v WHERE v.student_id = gs.student_id AND v.created_at > ps.last_pushed_at
		            AND ` + pushOn("CASE WHEN v.auto_kind IS NULL THEN 'violation' ELSE 'attendance' END") + `)
		     OR EXISTS (SELECT 1 FROM warning_letters wl WHERE wl.student_id = gs.student_id AND wl.sent_to_parent_at > ps.last_pushed_at AND wl.status <> 'withdrawn'
		            AND ` + pushOn("'warning_letter'") + `)
		     OR EXISTS (SELECT 1 FROM excuses e WHERE e.student_id = gs.student_id AND e.guardian_id = g.id AND e.decided_at > ps.last_pushed_at
		            AND ` + pushOn("'excuse'") + `)))
		ORDER BY ps.id LIMIT 500`
	if err := p.DB.SelectContext(ctx, &subs, q); err != nil {
		return 0, fmt.Errorf("portal: push: %w", err)
	}
	if len(subs) == 0 {
		return 0, nil
	}
	k, pub, err := vapidKey(ctx, p.DB)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, s := range subs {
		// Claim: of two replicas, one moves last_pushed_at and pushes.
		res, err := p.DB.ExecContext(ctx, `UPDATE portal_push_subscriptions SET last_pushed_at = $3 WHERE id = $1 AND last_pushed_at = $2`, s.ID, s.Last, scanned)
		if err != nil {
			return sent, fmt.Errorf("portal: push claim: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		status, err := p.send(ctx, k, pub, s.Endpoint, now)
		switch {
		case status == http.StatusNotFound || status == http.StatusGone:
			_, err = p.DB.ExecContext(ctx, `DELETE FROM portal_push_subscriptions WHERE id = $1`, s.ID)
		case err != nil || status >= 300:
			if p.Log != nil {
				p.Log.Warn("portal push failed", "subscription", s.ID, "status", status, "err", err)
			}
			_, err = p.DB.ExecContext(ctx, `UPDATE portal_push_subscriptions SET failures = failures + 1 WHERE id = $1`, s.ID)
		default:
			sent++
			_, err = p.DB.ExecContext(ctx, `UPDATE portal_push_subscriptions SET failures = 0 WHERE id = $1`, s.ID)
		}
		if err != nil {
			return sent, fmt.Errorf("portal: push record: %w", err)
		}
	}
	return sent, nil
}

func (p *Pusher) send(ctx context.Context, k *ecdsa.PrivateKey, pub, endpoint string, now time.Time) (int, error) {
	auth, err := vapidAuth(k, pub, endpoint, p.Subject, now)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, http.NoBody)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("TTL", "86400")
	req.Header.Set("Urgency", "normal")
	res, err := p.Client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
	_ = res.Body.Close()
	return res.StatusCode, nil
}

// Run pushes every PushInterval until ctx ends.
func (p *Pusher) Run(ctx context.Context) {
	t := time.NewTicker(PushInterval)
	defer t.Stop()
	for {
		if _, err := p.PushOnce(ctx); err != nil && ctx.Err() == nil && p.Log != nil {
			p.Log.Error("portal push", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
