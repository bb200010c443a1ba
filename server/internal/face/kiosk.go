package face

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
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

func (h *Handler) listKiosks(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.Kiosks(r.Context())
	if err != nil {
		return err
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
	token := newToken()
	k, err := h.store.CreateKiosk(ctx, h.auth.Actor(r), in.Name, token)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, api.KioskCreated{Kiosk: k, Token: token})
}

// revokeKiosk stops the kiosk's token at once. Revoking a revoked kiosk
// changes nothing and is not an error.
func (h *Handler) revokeKiosk(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := h.store.RevokeKiosk(ctx, h.auth.Actor(r), id); err != nil {
		return err
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
	return h.store.KioskByToken(ctx, token)
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
	out, err := h.store.KioskInfo(ctx, k)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
