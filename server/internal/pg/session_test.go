package pg_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestCheckDirect: a direct URL to the same database hears the pooled
// side's NOTIFY; one to another database (as one through a transaction
// pooler) hears nothing and is refused. The pooler itself is in
// cmd/tatib-server's TestBehindTransactionPooler.
func TestCheckDirect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewURL(t)
	db, err := pg.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := pg.CheckDirect(ctx, db, url, 10*time.Second); err != nil {
		t.Fatalf("same database: %v", err)
	}
	err = pg.CheckDirect(ctx, db, pgtest.NewURL(t), 300*time.Millisecond)
	if !errors.Is(err, pg.ErrNoSession) {
		t.Fatalf("another database: %v", err)
	}

	// A session lock taken on a Session is held until it ends.
	conn, end, err := pg.Session(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var got bool
	if err := conn.GetContext(ctx, &got, `SELECT pg_try_advisory_lock(42)`); err != nil || !got {
		t.Fatalf("lock: %v %v", got, err)
	}
	if err := db.GetContext(ctx, &got, `SELECT pg_try_advisory_lock(42)`); err != nil || got {
		t.Fatalf("a second session took the lock: %v %v", got, err)
	}
	end()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var n int
		if err := db.GetContext(ctx, &n, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 42`); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock outlived its session")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
