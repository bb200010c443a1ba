package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/shared/api"
)

// What keeps anonymous pushes from costing memory (issue 25: twenty
// anonymous 16 MB pushes took the server to 788 MB): a token in a header or
// the query is checked before any of the body is read; a token in the body
// is looked for in its first tokenPrefix bytes (the E-Jurnal sends it
// first) and checked before the rest is read; and at most MaxPushesAtOnce
// bodies are read and applied at once in a process, a push waiting up to
// pushWait for its turn and answered 503 with Retry-After after that.
const (
	MaxPushesAtOnce = 4
	pushWait        = 10 * time.Second
	busyRetryAfter  = 15
	tokenPrefix     = 64 << 10
)

// tokenInPrefix returns the body's top-level "token" when it appears in
// prefix (the first bytes of the body) as a string; ok is false when the
// prefix ends first or the body is not an object.
func tokenInPrefix(prefix []byte) (token string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "", false
		}
		if key, _ := k.(string); key == "token" {
			var v laxString
			if err := dec.Decode(&v); err != nil || !v.ok {
				return "", false
			}
			return v.s, true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
	return "", false
}

// peekPrefix reads the body's first tokenPrefix bytes without consuming
// them: the whole body is then read from the returned reader.
func peekPrefix(body io.Reader) ([]byte, *bufio.Reader) {
	br := bufio.NewReaderSize(body, tokenPrefix)
	prefix, _ := br.Peek(tokenPrefix) // shorter at the body's end or on an error the full read reports
	return prefix, br
}

// waitTurn takes one of the process's push slots, or answers Unavailable
// when none frees within pushWait.
func (h *Handler) waitTurn(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(pushWait)
	defer t.Stop()
	select {
	case h.slots <- struct{}{}:
		return func() { <-h.slots }, nil
	case <-t.C:
	case <-ctx.Done():
	}
	e := apperr.New(apperr.Unavailable, "journal.busy", "seconds", busyRetryAfter)
	e.RetryAfter = busyRetryAfter
	return nil, e
}

// Refused tokens are kept per address and minute, at most keepAuthFailures
// rows.
const keepAuthFailures = 500

// LogAuthFailure counts a push or ping refused for its token.
func (s *Store) LogAuthFailure(ctx context.Context, address, code string, at time.Time) error {
	const q = `WITH up AS (
		INSERT INTO journal_auth_failures AS f (address, minute, error_code, last_at) VALUES ($1, date_trunc('minute', $3::timestamptz), $2, $3)
		ON CONFLICT (address, minute) DO UPDATE SET attempts = f.attempts + 1, error_code = EXCLUDED.error_code, last_at = EXCLUDED.last_at
		RETURNING id)
	DELETE FROM journal_auth_failures WHERE (SELECT id FROM up) % 50 = 0
		AND id <= (SELECT id FROM journal_auth_failures ORDER BY id DESC OFFSET $4 LIMIT 1)`
	if _, err := s.db.ExecContext(ctx, q, address, code, at, keepAuthFailures); err != nil {
		return fmt.Errorf("journal: log refused token: %w", err)
	}
	return nil
}

// AuthFailures lists the refused tokens of the last day, newest first, per
// address and minute.
func (s *Store) AuthFailures(ctx context.Context, q sqlx.QueryerContext) ([]api.JournalAuthFailure, error) {
	out := []api.JournalAuthFailure{}
	const sel = `SELECT address, minute, attempts, error_code, last_at FROM journal_auth_failures
		WHERE last_at > now() - interval '1 day' ORDER BY last_at DESC, id DESC LIMIT 100`
	if err := sqlx.SelectContext(ctx, q, &out, sel); err != nil {
		return nil, fmt.Errorf("journal: refused tokens: %w", err)
	}
	return out, nil
}
