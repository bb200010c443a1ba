// Package pgtest gives each test a fresh, migrated PostgreSQL database,
// cloned from a template by pgtestdb, so tests run in parallel and never see
// each other's rows.
package pgtest

import (
	"net/url"
	"os"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/peterldowns/pgtestdb"
	"github.com/peterldowns/pgtestdb/migrators/goosemigrator"

	"github.com/tatib/tatib/migrations"
)

// URL is the server the test databases are made on: TATIB_TEST_DATABASE_URL,
// else DATABASE_URL. `make test` starts the private cluster and sets it.
func URL() string {
	if u := os.Getenv("TATIB_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return os.Getenv("DATABASE_URL")
}

// Config returns the pgtestdb configuration for URL.
func Config(t testing.TB) pgtestdb.Config {
	t.Helper()
	raw := URL()
	if raw == "" {
		t.Fatal("pgtest: no database server: set TATIB_TEST_DATABASE_URL (make test starts the private cluster and sets it)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("pgtest: bad database URL: %v", err)
	}
	pw, _ := u.User.Password()
	q := u.Query()
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "disable")
	}
	// As pg.Open connects in production: every test's queries go in one
	// round trip, so a []byte sent where jsonb is wanted fails here.
	q.Set("binary_parameters", "yes")
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	return pgtestdb.Config{
		DriverName: "postgres",
		Host:       u.Hostname(),
		Port:       port,
		User:       u.User.Username(),
		Password:   pw,
		Database:   "postgres",
		Options:    q.Encode(),
	}
}

// Migrator applies Tatib's embedded migrations.
func Migrator() pgtestdb.Migrator {
	return goosemigrator.New(".", goosemigrator.WithFS(migrations.FS))
}

// New returns a connection to a fresh migrated database for this test.
func New(t testing.TB) *sqlx.DB {
	t.Helper()
	db := pgtestdb.New(t, Config(t), Migrator())
	return sqlx.NewDb(db, "postgres")
}

// NewURL returns the URL of a fresh migrated database, for tests that start
// a whole server process.
func NewURL(t testing.TB) string {
	t.Helper()
	c := pgtestdb.Custom(t, Config(t), Migrator())
	return c.URL()
}
