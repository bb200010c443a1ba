package face

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
)

// TokenPrefix starts every kiosk device token (auth's middleware leaves
// such bearer tokens to this package).
const TokenPrefix = "kiosk_"

// newToken is "kiosk_" and 32 random bytes in base64url (43 characters).
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

type kioskRow struct {
	ID            int64      `db:"id"`
	Name          string     `db:"name"`
	TokenHint     string     `db:"token_hint"`
	CreatedByName string     `db:"created_by_name"`
	CreatedAt     time.Time  `db:"created_at"`
	LastSeenAt    *time.Time `db:"last_seen_at"`
	RevokedAt     *time.Time `db:"revoked_at"`
	AlarmCount    int        `db:"alarm_count"`
	AlarmAt       *time.Time `db:"alarm_at"`
}

func (k kioskRow) wire() api.Kiosk {
	return api.Kiosk{ID: k.ID, Name: k.Name, TokenHint: k.TokenHint, CreatedByName: k.CreatedByName, CreatedAt: k.CreatedAt,
		LastSeenAt: k.LastSeenAt, RevokedAt: k.RevokedAt, AlarmCount: k.AlarmCount, AlarmAt: k.AlarmAt}
}

const kioskCols = `id, name, token_hint, created_by_name, created_at, last_seen_at, revoked_at, alarm_count, alarm_at`

func (h *Handler) listKiosks(w http.ResponseWriter, r *http.Request) error {
	var rows []kioskRow
	if err := h.db.SelectContext(r.Context(), &rows, `SELECT `+kioskCols+` FROM kiosks
		ORDER BY revoked_at IS NOT NULL, lower(name), id`); err != nil {
		return fmt.Errorf("face: kiosks: %w", err)
	}
	out := make([]api.Kiosk, 0, len(rows))
	for _, k := range rows {
		out = append(out, k.wire())
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) createKiosk(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var in api.KioskInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	in.Name = strings.TrimSpace(in.Name)
	f := apperr.Fields{}
	switch n := utf8.RuneCountInString(in.Name); {
	case n == 0:
		f.Add("name", "face.kiosk.name_required")
	case n > 80:
		f.Add("name", "face.field.too_long", "max", 80)
	}
	if err := f.Err(); err != nil {
		return err
	}
	actor := h.auth.Actor(r)
	token := newToken()
	var k kioskRow
	tx, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("face: begin: %w", err)
	}
	defer tx.Rollback()
	if err := tx.GetContext(ctx, &k, `INSERT INTO kiosks (name, token_hash, token_hint, created_by, created_by_name)
		VALUES ($1, $2, $3, $4, $5) RETURNING `+kioskCols, in.Name, hashToken(token), token[:10], userRef(actor), actor.Display()); err != nil {
		return fmt.Errorf("face: create kiosk: %w", err)
	}
	if err := audit.Record(ctx, tx, actor, "kiosk.create", "kiosk", strconv.FormatInt(k.ID, 10),
		map[string]any{"name": k.Name, "token_hint": k.TokenHint}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("face: commit: %w", err)
	}
	return httpx.JSON(w, http.StatusCreated, api.KioskCreated{Kiosk: k.wire(), Token: token})
}

// revokeKiosk stops the kiosk's token at once. Revoking a revoked kiosk
// changes nothing and is not an error.
func (h *Handler) revokeKiosk(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	tx, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("face: begin: %w", err)
	}
	defer tx.Rollback()
	var k kioskRow
	if err := tx.GetContext(ctx, &k, `SELECT `+kioskCols+` FROM kiosks WHERE id = $1 FOR UPDATE`, id); err != nil {
		if pgNoRows(err) {
			return apperr.New(apperr.NotFound, "face.kiosk.not_found")
		}
		return fmt.Errorf("face: kiosk: %w", err)
	}
	if k.RevokedAt == nil {
		if _, err := tx.ExecContext(ctx, `UPDATE kiosks SET revoked_at = now() WHERE id = $1`, id); err != nil {
			return fmt.Errorf("face: revoke kiosk: %w", err)
		}
		if err := audit.Record(ctx, tx, h.auth.Actor(r), "kiosk.revoke", "kiosk", strconv.FormatInt(id, 10),
			map[string]any{"name": k.Name, "token_hint": k.TokenHint}); err != nil {
			return err
		}
		if err := erasure.Record(ctx, tx, erasure.KioskRevoked, map[string]any{"kiosk_id": id}); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("face: commit: %w", err)
	}
	return httpx.NoContent(w)
}

// kiosk is the kiosk a request's device token belongs to.
type kiosk struct {
	ID   int64  `db:"id"`
	Name string `db:"name"`
}

// kioskToken is the device token of r: "Authorization: Bearer kiosk_…"
// or the X-Kiosk-Token header.
func kioskToken(r *http.Request) string {
	if t := auth.BearerToken(r); strings.HasPrefix(t, TokenPrefix) {
		return t
	}
	return strings.TrimSpace(r.Header.Get("X-Kiosk-Token"))
}

// kioskOf authenticates the kiosk of r: a token that is missing, unknown
// or revoked is 401 face.kiosk_token_invalid. last_seen_at moves at most
// once a minute.
func (h *Handler) kioskOf(ctx context.Context, r *http.Request) (kiosk, error) {
	token := kioskToken(r)
	var k kiosk
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 200 {
		return k, apperr.New(apperr.Unauthorized, "face.kiosk_token_invalid")
	}
	if err := h.db.GetContext(ctx, &k, `SELECT id, name FROM kiosks WHERE token_hash = $1 AND revoked_at IS NULL`, hashToken(token)); err != nil {
		if pgNoRows(err) {
			return k, apperr.New(apperr.Unauthorized, "face.kiosk_token_invalid")
		}
		return k, fmt.Errorf("face: kiosk token: %w", err)
	}
	if _, err := h.db.ExecContext(ctx, `UPDATE kiosks SET last_seen_at = now()
		WHERE id = $1 AND (last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')`, k.ID); err != nil {
		return k, fmt.Errorf("face: kiosk seen: %w", err)
	}
	return k, nil
}

// actor is the audit actor of a kiosk's request.
func (h *Handler) kioskActor(r *http.Request, k kiosk) audit.Actor {
	a := h.auth.Actor(r)
	a.ID, a.Name, a.DisplayName = 0, "kiosk:"+k.Name, k.Name
	return a
}

func (h *Handler) kioskInfo(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	k, err := h.kioskOf(ctx, r)
	if err != nil {
		return err
	}
	s, err := LoadSettings(ctx, h.db)
	if err != nil {
		return err
	}
	p, err := school.LoadProfile(ctx, h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.KioskInfo{ID: k.ID, Name: k.Name, School: p.Name, Challenges: append([]string{}, s.Challenges...)})
}
