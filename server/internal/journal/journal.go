// Package journal is the journal (E-Jurnal) integration: the token the
// journal authenticates with, POST /attendance/sync (a school day's lesson
// hours in the deployed E-Jurnal's shape or ours), GET /attendance/ping,
// the push log and the entries parked for students Tatib does not know
// yet, applied by the next student sync. See docs/attendance.md, "The
// journal API".
package journal

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// Limits of one push: a whole school day is about 15,000-20,000 entries;
// a JSON entry in the E-Jurnal's shape is about 100 bytes.
const (
	// MaxEntries is the most entries one push may carry (413 beyond).
	MaxEntries = 50_000
	// MaxRequestBytes is the most bytes one push's body may have (413
	// beyond); the server-wide limit does not apply to this route.
	MaxRequestBytes = 16 << 20
	// MaxNotes is the longest note of an entry, in characters.
	MaxNotes = 500
	// keepPushes is how many pushes the log keeps; pruned every
	// pruneEvery-th push.
	keepPushes = 5000
	pruneEvery = 100
	// maxNamed is how many bad fields a refused batch names; the rest
	// are counted.
	maxNamed = 100
	// maxLogged is how many bad fields the push log keeps.
	maxLogged = 20
)

// keyToken is the settings key of the journal token.
const keyToken = "journal_token"

// Push outcomes, as journal_pushes stores them.
const (
	OutcomeApplied      = "applied"
	OutcomeRejected     = "rejected"
	OutcomeUnauthorized = "unauthorized"
	OutcomeTooLarge     = "too_large"
	OutcomeFailed       = "failed"
)

// ReasonUnknownStudent is why an entry is parked: no student has its
// source_student_id (yet).
const ReasonUnknownStudent = "unknown_student"

// ReasonInactiveStudent is why an entry for a student marked inactive is
// parked: the class form hides them, so automatic violations for them could
// not be seen or corrected. A sync that finds them active again applies it.
const ReasonInactiveStudent = "inactive_student"

// storedToken is the settings value of keyToken.
type storedToken struct {
	Token     string    `json:"token"`
	CreatedAt time.Time `json:"created_at"`
	CreatedBy string    `json:"created_by"`
}

// newToken returns 48 URL-safe characters from 36 random bytes (288 bits).
func newToken() (string, error) {
	b := make([]byte, 36)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("journal: token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// loadToken returns the stored token; found is false before one was
// generated.
func loadToken(ctx context.Context, q sqlx.QueryerContext) (storedToken, bool, error) {
	var raw []byte
	err := q.QueryRowxContext(ctx, `SELECT value FROM settings WHERE key = $1`, keyToken).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return storedToken{}, false, nil
	}
	if err != nil {
		return storedToken{}, false, fmt.Errorf("journal: read token: %w", err)
	}
	var t storedToken
	if err := json.Unmarshal(raw, &t); err != nil {
		return storedToken{}, false, fmt.Errorf("journal: decode token: %w", err)
	}
	return t, t.Token != "", nil
}

func (t storedToken) wire(found bool) api.JournalToken {
	if !found {
		return api.JournalToken{}
	}
	at := t.CreatedAt
	return api.JournalToken{Token: t.Token, CreatedAt: &at, CreatedBy: t.CreatedBy}
}

// LoadToken returns the journal token for Settings -> Integrations; Token
// is empty before one was generated.
func LoadToken(ctx context.Context, q sqlx.QueryerContext) (api.JournalToken, error) {
	t, found, err := loadToken(ctx, q)
	return t.wire(found), err
}

// RegenerateToken replaces the journal token with a new random one (the
// old one stops working with the commit) and audits it; the token itself
// never goes to the audit log.
func RegenerateToken(ctx context.Context, db *sqlx.DB, actor audit.Actor) (api.JournalToken, error) {
	tok, err := newToken()
	if err != nil {
		return api.JournalToken{}, err
	}
	st := storedToken{Token: tok, CreatedAt: time.Now().UTC().Truncate(time.Second), CreatedBy: actor.Display()}
	err = pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		_, had, err := loadToken(ctx, tx)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(st)
		var by *int64
		if actor.ID != 0 {
			by = &actor.ID
		}
		const stmt = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`
		if _, err := tx.ExecContext(ctx, stmt, keyToken, string(b), by); err != nil {
			return fmt.Errorf("journal: write token: %w", err)
		}
		return audit.Record(ctx, tx, actor, "settings.journal_token.regenerate", "setting", keyToken, map[string]any{"replaced": had})
	})
	if err != nil {
		return api.JournalToken{}, err
	}
	return st.wire(true), nil
}

// tokenMatches compares in constant time: both sides are hashed first, so
// neither their contents nor their lengths show in the timing.
func tokenMatches(given, stored string) bool {
	if given == "" || stored == "" {
		return false
	}
	a, b := sha256.Sum256([]byte(given)), sha256.Sum256([]byte(stored))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}
