// Package pg opens Tatib's PostgreSQL database, runs migrations and maps
// database errors to application errors.
package pg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	neturl "net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/tatib/tatib/migrations"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
)

// DefaultPoolConns is how many connections Open keeps at most (the
// server sizes its pool from TATIB_DB_MAX_CONNS with OpenPool).
const DefaultPoolConns = 10

// Open connects to url with a pool of DefaultPoolConns; see OpenPool.
func Open(ctx context.Context, url string) (*sqlx.DB, error) {
	return OpenPool(ctx, url, DefaultPoolConns)
}

// OpenPool connects to url with a pool of at most conns connections and
// checks the connection. Every query with parameters goes in one round
// trip (lib/pq's binary_parameters: Parse, Bind and Execute before one
// Sync) instead of a prepare and an execute: a pooler in transaction mode
// may hand the execute to another server connection, which runs one
// request's parameters against another's statement. It also saves a
// round trip per query. The price: a []byte parameter travels in binary
// format, which is right for bytea and text but not for jsonb — pass JSON
// as a string.
func OpenPool(ctx context.Context, url string, conns int) (*sqlx.DB, error) {
	url, err := WithBinaryParameters(url)
	if err != nil {
		return nil, err
	}
	db, err := sqlx.Open("postgres", url)
	if err != nil {
		return nil, fmt.Errorf("pg: open: %w", err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		var pe *pq.Error
		if errors.As(err, &pe) && strings.Contains(pe.Message, "unsupported startup parameter") {
			// lib/pq sends extra_float_digits when it connects; PgBouncer
			// refuses parameters it does not know unless told to ignore them.
			return nil, fmt.Errorf("pg: connect: %w: a pooler refuses a parameter lib/pq sends; "+
				"PgBouncer: add ignore_startup_parameters = extra_float_digits to pgbouncer.ini (docs/deployment.md)", err)
		}
		return nil, fmt.Errorf("pg: connect: %w", err)
	}
	return db, nil
}

// WithBinaryParameters returns the connection string raw (a postgres://
// URL or libpq's key=value form) with binary_parameters=yes. A string
// that asks for binary_parameters=no is refused: the server does not work
// behind a transaction pooler without it.
func WithBinaryParameters(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "postgres://") || strings.HasPrefix(raw, "postgresql://") {
		u, err := neturl.Parse(raw)
		if err != nil {
			return "", errors.New("pg: the database URL cannot be read")
		}
		q := u.Query()
		if v := q.Get("binary_parameters"); v != "" && v != "yes" {
			return "", fmt.Errorf("pg: remove binary_parameters=%s from the database URL: Tatib sends every query in one round trip", v)
		}
		q.Set("binary_parameters", "yes")
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	for _, f := range strings.Fields(raw) {
		if v, ok := strings.CutPrefix(f, "binary_parameters="); ok && strings.Trim(v, "'") != "yes" {
			return "", fmt.Errorf("pg: remove binary_parameters=%s from the database URL: Tatib sends every query in one round trip", v)
		}
	}
	return raw + " binary_parameters=yes", nil
}

// Migrate applies every pending migration. A Postgres session lock makes a
// second replica wait (up to MigrateLockWait, looking every second) rather
// than migrate at the same time; the lock needs a session of its own, so
// db must be a direct connection (TATIB_DATABASE_DIRECT_URL), never one
// through a pooler in transaction mode.
func Migrate(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	locker, err := lock.NewPostgresSessionLocker(
		lock.WithLockTimeout(1, uint64(MigrateLockWait/time.Second)))
	if err != nil {
		return fmt.Errorf("pg: migrate: locker: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("pg: migrate: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("pg: migrate: %w", err)
	}
	for _, r := range results {
		log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "took", r.Duration)
	}
	return nil
}

// MigrateLockWait is how long a replica waits for another one's
// migrations before giving up.
const MigrateLockWait = 10 * time.Minute

// InTx runs fn in a transaction, committing when fn returns nil.
func InTx(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("pg: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pg: commit: %w", err)
	}
	return nil
}

// Retryable reports whether err is a failure PostgreSQL asks the client
// to retry: a serialization failure (40001) or a deadlock victim (40P01).
// The whole transaction was rolled back, so running it again is safe.
func Retryable(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// RetryAttempts is how many times InTxRetry runs a transaction that keeps
// failing with a retryable error before giving the error back.
const RetryAttempts = 4

// InTxRetry is InTx for writers that can lose a deadlock or a
// serialization check to a concurrent writer (journal pushes racing a
// reset or each other): it runs fn again in a new transaction, after a
// short jittered pause, up to RetryAttempts times. fn must start from
// scratch on every call (reset what it fills outside the transaction).
func InTxRetry(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = InTx(ctx, db, fn)
		if err == nil || !Retryable(err) || attempt == RetryAttempts {
			return err
		}
		pause := time.Duration(attempt*attempt)*10*time.Millisecond + time.Duration(rand.Int64N(int64(20*time.Millisecond)))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// Error maps well-known database errors to application errors: a unique
// violation becomes Conflict, no rows becomes NotFound. what is the
// catalogue key of the thing's name ("entity.student"); "" for a generic
// "data". Other errors are wrapped unchanged.
func Error(err error, what string) error {
	if what == "" {
		what = "entity.data"
	}
	subject := locale.Key(what)
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "db.not_found", "what", subject)
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return apperr.New(apperr.Conflict, "db.exists", "what", subject)
		case "23503":
			return apperr.New(apperr.Conflict, "db.in_use", "what", subject)
		}
	}
	return err
}

// IsUnique reports whether err is a unique violation, optionally of the
// named constraint.
func IsUnique(err error, constraint string) bool {
	var pe *pq.Error
	if !errors.As(err, &pe) || pe.Code != "23505" {
		return false
	}
	return constraint == "" || pe.Constraint == constraint
}
