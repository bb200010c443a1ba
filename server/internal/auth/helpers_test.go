package auth_test

import (
	"strconv"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }

// dbURL returns a URL for the database db is connected to.
func dbURL(t *testing.T, db *sqlx.DB) string {
	t.Helper()
	var name string
	if err := db.Get(&name, `SELECT current_database()`); err != nil {
		t.Fatal(err)
	}
	c := pgtest.Config(t)
	c.Database = name
	return c.URL()
}
