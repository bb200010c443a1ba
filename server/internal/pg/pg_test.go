package pg_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestMigrateConcurrently runs the migrations twice at once on an empty
// database, as two replicas starting together would: the session lock
// makes one wait, and both succeed.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conf := pgtest.Config(t)
	admin, err := pg.Open(ctx, conf.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("tatib_migrate_%d", time.Now().UnixNano())
	admin.MustExec(`CREATE DATABASE ` + name)
	t.Cleanup(func() { admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`) })
	conf.Database = name
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := pg.Open(ctx, conf.URL())
			if err != nil {
				errs[i] = err
				return
			}
			defer db.Close()
			errs[i] = pg.Migrate(ctx, db.DB, log)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	db, err := pg.Open(ctx, conf.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM users`); err != nil {
		t.Fatal(err)
	}
	// And again: nothing left to apply.
	if err := pg.Migrate(ctx, db.DB, log); err != nil {
		t.Fatal(err)
	}
}

func TestErrorMapping(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	db.MustExec(`INSERT INTO users (username, name, role, password_hash) VALUES ('a', 'A', 'bk', 'x')`)
	_, err := db.ExecContext(ctx, `INSERT INTO users (username, name, role, password_hash) VALUES ('A', 'A', 'bk', 'x')`)
	if !pg.IsUnique(err, "users_username_key") || apperr.Code(pg.Error(err, "entity.user")) != apperr.Conflict {
		t.Fatalf("unique: %v", err)
	}
	var id int
	err = db.GetContext(ctx, &id, `SELECT id FROM users WHERE username = 'nobody'`)
	if apperr.Code(pg.Error(err, "entity.user")) != apperr.NotFound {
		t.Fatalf("no rows: %v", err)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO users (username, name, role, password_hash) VALUES ('b', 'B', 'raja', 'x')`)
	if err == nil {
		t.Fatal("the role CHECK constraint let 'raja' in")
	}
}
