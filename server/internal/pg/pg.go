// Package pg opens Tatib's PostgreSQL database, runs migrations and maps
// database errors to application errors.
package pg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/tatib/tatib/migrations"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
)

// Open connects to url and checks the connection.
func Open(ctx context.Context, url string) (*sqlx.DB, error) {
	db, err := sqlx.Open("postgres", url)
	if err != nil {
		return nil, fmt.Errorf("pg: open: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	db.SetConnMaxIdleTime(5 * time.Minute)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("pg: connect: %w", err)
	}
	return db, nil
}

// Migrate applies every pending migration. A Postgres session lock makes a
// second replica wait rather than migrate at the same time.
func Migrate(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	locker, err := lock.NewPostgresSessionLocker()
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
