package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
	"github.com/peterldowns/pgtestdb"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// The command line's backup and restore, as an operator runs them: backup
// to a file, restore into an empty database, refuse a database with a
// school unless forced, and never ask a script a question.
func TestBackupRestoreCommands(t *testing.T) {
	t.Parallel()
	bin := serverBin(t)
	// One data folder, as on the server: the backup writes the erasure
	// ledger's file there, the restore reads it.
	data := t.TempDir()
	run := func(url string, stdout *os.File, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DATABASE_URL="+url, "LANG=C", "TATIB_DATA_DIR="+data)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if stdout != nil {
			cmd.Stdout = stdout
		}
		err := cmd.Run()
		return stderr.String(), err
	}
	src := pgtest.NewURL(t)
	srcDB := sqlx.MustOpen("postgres", src)
	defer srcDB.Close()
	srcDB.MustExec(`INSERT INTO users (username, name, role, password_hash) VALUES ('kepala', 'Ibu Kepala', 'admin', 'x')`)

	file := filepath.Join(t.TempDir(), "tatib.dump")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := run(src, f, "backup")
	f.Close()
	if err != nil || !strings.Contains(stderr, "done") {
		t.Fatalf("backup: %v\n%s", err, stderr)
	}
	if b, _ := os.ReadFile(file); !bytes.HasPrefix(b, []byte("PGDMP")) {
		t.Fatalf("not an archive: %d bytes", len(b))
	}
	var via string
	if err := srcDB.Get(&via, `SELECT via FROM backups WHERE status = 'done'`); err != nil || via != "cli" {
		t.Fatalf("record: %q %v", via, err)
	}

	dst := pgtestdb.Custom(t, pgtest.Config(t), pgtestdb.NoopMigrator{}).URL()
	if _, err := os.Stat(filepath.Join(data, "erasures.jsonl")); err != nil {
		t.Fatalf("the backup wrote no erasure ledger: %v", err)
	}
	if stderr, err := run(dst, nil, "restore", file); err != nil || !strings.Contains(stderr, "restored into the empty database") ||
		!strings.Contains(stderr, "0 erasures made after the backup done again") {
		t.Fatalf("restore: %v\n%s", err, stderr)
	}
	dstDB := sqlx.MustOpen("postgres", dst)
	defer dstDB.Close()
	var name string
	if err := dstDB.Get(&name, `SELECT name FROM users WHERE username = 'kepala'`); err != nil || name != "Ibu Kepala" {
		t.Fatalf("restored user: %q %v", name, err)
	}

	if stderr, err := run(dst, nil, "restore", file); err == nil || !strings.Contains(stderr, "already holds a school") {
		t.Fatalf("over a school: %v\n%s", err, stderr)
	}
	// Standard input is not a terminal here: --force alone cannot ask.
	if stderr, err := run(dst, nil, "restore", "--force", file); err == nil || !strings.Contains(stderr, "--yes") {
		t.Fatalf("forced without a terminal: %v\n%s", err, stderr)
	}
	if stderr, err := run(dst, nil, "restore", "--force", "--yes", file); err != nil || !strings.Contains(stderr, "replaced") {
		t.Fatalf("forced: %v\n%s", err, stderr)
	}
	if stderr, err := run(dst, nil, "restore", "--yes", file); err == nil || !strings.Contains(stderr, "--force") {
		t.Fatalf("--yes alone: %v\n%s", err, stderr)
	}
}
