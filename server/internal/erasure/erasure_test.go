package erasure_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestLedger: entries written in a database reach the file beside the data
// folder (Mirror), with the database's lineage; the file keeps what it
// held (another database's entries); Missing gives the entries of the
// database's own lineage its ledger lacks, and ignores another's.
func TestLedger(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.New(t)
	other := pgtest.New(t)
	path := filepath.Join(t.TempDir(), "data", erasure.FileName)

	if _, err := erasure.ReadFile(path); !errors.Is(err, erasure.ErrNoFile) {
		t.Fatalf("no file: %v", err)
	}
	record := func(db *sqlx.DB, kind string, details map[string]any) {
		t.Helper()
		if err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error { return erasure.Record(ctx, tx, kind, details) }); err != nil {
			t.Fatal(err)
		}
	}
	record(other, erasure.DataReset, map[string]any{"sets": []string{"notifications"}})
	if n, err := erasure.Mirror(ctx, other, path); err != nil || n != 1 {
		t.Fatalf("other: %d %v", n, err)
	}
	record(db, erasure.FaceConsentWithdrawn, map[string]any{"student_id": 7, "consent_id": 9})
	record(db, erasure.KioskRevoked, map[string]any{"kiosk_id": 3})
	if n, err := erasure.Mirror(ctx, db, path); err != nil || n != 3 {
		t.Fatalf("mirror: %d %v", n, err)
	}
	file, err := erasure.ReadFile(path)
	if err != nil || len(file) != 3 {
		t.Fatalf("%d %v", len(file), err)
	}
	lineage, own, err := erasure.Load(ctx, db)
	if err != nil || len(own) != 2 || own[0].Ledger != lineage || own[0].Int("consent_id") != 9 || own[1].Int("kiosk_id") != 3 {
		t.Fatalf("%q %+v %v", lineage, own, err)
	}
	if sets := file[0].Strings("sets"); len(sets) != 1 || sets[0] != "notifications" {
		t.Errorf("the other database's reset: %+v", file[0])
	}

	// As after restoring a backup taken before the kiosk's revocation.
	db.MustExec(`DELETE FROM erasures WHERE kind = $1`, erasure.KioskRevoked)
	missing, err := erasure.Missing(ctx, db, file)
	if err != nil || len(missing) != 1 || missing[0].Kind != erasure.KioskRevoked {
		t.Fatalf("missing: %+v %v", missing, err)
	}
	if err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error { return erasure.Add(ctx, tx, missing) }); err != nil {
		t.Fatal(err)
	}
	if missing, err := erasure.Missing(ctx, db, file); err != nil || len(missing) != 0 {
		t.Fatalf("after Add: %+v %v", missing, err)
	}

	must(t, os.WriteFile(path, []byte("{\"key\": \"x\"}\n"), 0o600))
	if _, err := erasure.ReadFile(path); err == nil {
		t.Error("a broken ledger file read without error")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
