package pg_test

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestIsUnavailable: a database that cannot be reached or drops the
// connection is "unavailable"; a fault in the statement or the data is not.
func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("Refused", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		db, err := sqlx.Open("postgres", "postgres://tatib@"+addr+"/tatib?sslmode=disable&connect_timeout=2")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		err = db.PingContext(ctx)
		if err == nil || !pg.IsUnavailable(err) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("Terminated", func(t *testing.T) {
		db := pgtest.New(t)
		conn, err := db.Connx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var pid int
		if err := conn.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
			t.Fatal(err)
		}
		db.MustExec(`SELECT pg_terminate_backend($1)`, pid)
		time.Sleep(50 * time.Millisecond)
		var one int
		err = conn.GetContext(ctx, &one, `SELECT 1`)
		if err == nil || !pg.IsUnavailable(err) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("NotForDataErrors", func(t *testing.T) {
		db := pgtest.New(t)
		var s string
		for _, q := range []string{`SELEC 1`, `SELECT 1/0`, `SELECT E'\xff'::text`, `SELECT ''::text WHERE false`} {
			err := db.GetContext(ctx, &s, q)
			if err == nil || pg.IsUnavailable(err) {
				t.Errorf("%s: %v", q, err)
			}
		}
		for _, err := range []error{nil, sql.ErrNoRows, context.Canceled, errors.New("x")} {
			if pg.IsUnavailable(err) {
				t.Errorf("%v", err)
			}
		}
	})
}
