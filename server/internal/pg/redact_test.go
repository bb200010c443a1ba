package pg_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestRedact: a database error that quotes a parameter's value (a session
// token's hash sent where a number was wanted) is logged without it, with
// its SQLSTATE; one that names only the schema keeps its message.
func TestRedact(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	secret := "\\x5e4f1c9ad2b3"
	_, err := db.ExecContext(ctx, `SELECT $1::bigint`, secret)
	err = fmt.Errorf("auth: session: %w", err)
	got := pg.Redact(err)
	if strings.Contains(got, "5e4f1c9ad2b3") || !strings.HasPrefix(got, "auth: session: pq: invalid input syntax for type bigint") ||
		!strings.Contains(got, "22P02") {
		t.Errorf("%q", got)
	}
	_, err = db.ExecContext(ctx, `SELECT $1::integer`, "98765432109")
	if got := pg.Redact(err); strings.Contains(got, "98765432109") || !strings.Contains(got, `value "…" is out of range`) {
		t.Errorf("%q", got)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO users (username, name, role, password_hash) VALUES ($1, 'A', 'bk', 'x'), ($1, 'A', 'bk', 'x')`, "rahasia")
	if got := pg.Redact(err); got != `pq: duplicate key value violates unique constraint "users_username_key" (SQLSTATE 23505 unique_violation)` {
		t.Errorf("%q", got)
	}
	if got := pg.Redact(errors.New("plain")); got != "plain" {
		t.Errorf("%q", got)
	}

	// Through a logger with RedactAttr, as the server logs.
	var buf bytes.Buffer
	_, err = db.ExecContext(ctx, `SELECT $1::bigint`, secret)
	slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: pg.RedactAttr})).Error("request failed", "err", err)
	if strings.Contains(buf.String(), "5e4f1c9ad2b3") || !strings.Contains(buf.String(), "22P02") {
		t.Errorf("%s", buf.String())
	}
}
