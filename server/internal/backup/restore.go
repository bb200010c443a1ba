package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/datareset"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/face"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/users"
)

// Magic is how a pg_dump custom-format archive begins.
const Magic = "PGDMP"

// RestoreOptions say what to restore where.
type RestoreOptions struct {
	// URL is the target database's DATABASE_URL.
	URL string
	// File is the backup (a pg_dump custom-format archive).
	File string
	// Force allows replacing a database that holds a school already.
	Force bool
	// Confirm is asked, with the database's name, before a forced restore
	// replaces a school; it says whether to go on. Nil refuses.
	Confirm func(database string) (bool, error)
	// Getenv reads TATIB_PG_BIN; os.Getenv when nil.
	Getenv func(string) string
	Log    *slog.Logger
	// Ledger is the erasure ledger's file (TATIB_DATA_DIR/erasures.jsonl):
	// read with the ledger of the database being replaced before the
	// restore, and written back after it. "" leaves no file.
	Ledger string
	// WithoutLedger lets a restore into an empty database go on without a
	// ledger file: erasures made after the backup are not done again.
	WithoutLedger bool
}

// RestoreResult says what was restored.
type RestoreResult struct {
	Database string
	Replaced bool // the database held a school before
	Size     int64
	SHA256   string
	// Reapplied is how many erasures made after the backup was taken were
	// done again; SessionsEnded how many sessions the restore ended (all).
	Reapplied     int
	SessionsEnded int64
}

// Restore loads a backup into the database at o.URL with pg_restore
// (--clean --if-exists --no-owner, in one transaction: all or nothing),
// then applies the migrations this Tatib has and the backup lacks. A
// database that holds a school (a users table with rows) is replaced only
// with Force and Confirm's yes.
//
// Erasures made after the backup was taken are done again (docs/data-
// safety.md, "A restore keeps erasures"): the ledger of the database being
// replaced and the ledger file (o.Ledger) are read first, the file is
// written with both before anything is replaced, and once the backup is in,
// every entry of the restored database's lineage it lacks is applied
// again and added to its ledger. A restore into an empty database without
// a ledger file is refused unless o.WithoutLedger. Every session ends:
// one signed out after the backup would otherwise be back.
func Restore(ctx context.Context, o RestoreOptions) (RestoreResult, error) {
	var res RestoreResult
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	size, sum, err := checkArchive(o.File)
	if err != nil {
		return res, err
	}
	res.Size, res.SHA256 = size, sum
	conn, err := ParseConn(o.URL)
	if err != nil {
		return res, apperr.New(apperr.Unavailable, "backup.no_database_url")
	}
	res.Database = conn.Database
	db, err := pg.Open(ctx, o.URL)
	if err != nil {
		return res, err
	}
	defer db.Close()
	if err := db.GetContext(ctx, &res.Database, `SELECT current_database()`); err != nil {
		return res, fmt.Errorf("backup: database name: %w", err)
	}
	tools, err := Find(ctx, db, o.Getenv, "pg_restore")
	if err != nil {
		return res, err
	}
	if !tools.Usable() {
		return res, missing("backup.pg_restore_missing", tools)
	}
	// Empty means no Tatib here yet: no users table, or one without rows
	// (a database only migrated, never served).
	hasSchool, err := tableExists(ctx, db, "users")
	if err != nil {
		return res, err
	}
	if hasSchool {
		if err := db.GetContext(ctx, &hasSchool, `SELECT EXISTS (SELECT 1 FROM users)`); err != nil {
			return res, fmt.Errorf("backup: is the database empty: %w", err)
		}
	}
	if hasSchool {
		if !o.Force {
			return res, apperr.New(apperr.Conflict, "backup.restore_not_empty", "database", res.Database)
		}
		ok := false
		if o.Confirm != nil {
			if ok, err = o.Confirm(res.Database); err != nil {
				return res, err
			}
		}
		if !ok {
			return res, apperr.New(apperr.Conflict, "backup.restore_not_confirmed", "database", res.Database)
		}
		res.Replaced = true
	}
	targetLineage, targetLedger, err := erasure.Load(ctx, db)
	if err != nil {
		return res, err
	}
	var fileLedger []erasure.Entry
	if o.Ledger != "" {
		fileLedger, err = erasure.ReadFile(o.Ledger)
		switch {
		case errors.Is(err, erasure.ErrNoFile):
			if !hasSchool && !o.WithoutLedger {
				return res, apperr.New(apperr.Conflict, "backup.no_erasure_ledger", "database", res.Database, "file", o.Ledger)
			}
		case err != nil:
			return res, apperr.New(apperr.Invalid, "backup.file_unreadable", "file", o.Ledger, "reason", err.Error())
		}
	} else if !hasSchool && !o.WithoutLedger {
		return res, apperr.New(apperr.Conflict, "backup.no_erasure_ledger", "database", res.Database, "file", erasure.FileName)
	}
	ledger := erasure.Merge(fileLedger, targetLedger)
	// Before anything is replaced: the replaced database's erasures must
	// outlive it.
	if o.Ledger != "" && len(ledger) > len(fileLedger) {
		if err := erasure.WriteFile(o.Ledger, ledger); err != nil {
			return res, apperr.New(apperr.Internal, "backup.restore_failed", "reason", err.Error())
		}
	}

	stderr := &tail{max: 4000}
	cmd := exec.CommandContext(ctx, tools.Tool.Path, "--clean", "--if-exists", "--no-owner", "--no-privileges",
		"--single-transaction", "--exit-on-error", "--no-password", "--dbname="+conn.DSN, o.File)
	cmd.Env = conn.env()
	cmd.Stderr = stderr
	cmd.Stdout = stderr
	if err := cmd.Run(); err != nil {
		return res, apperr.New(apperr.Internal, "backup.restore_failed", "reason", reason(ctx, err, stderr))
	}
	// pg_restore may leave pooled connections with stale catalogue
	// caches; a fresh pool sees the restored schema.
	db.Close()
	if db, err = pg.Open(ctx, o.URL); err != nil {
		return res, err
	}
	defer db.Close()
	backupLineage, err := erasure.Lineage(ctx, db)
	if err != nil {
		return res, err
	}
	if err := pg.Migrate(ctx, db.DB, o.Log); err != nil {
		return res, err
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("backup: begin: %w", err)
	}
	defer tx.Rollback()
	// The backup that made this file was still running when pg_dump took
	// its snapshot: it is the newest running record, and it did finish:
	// here is its file.
	const own = `UPDATE backups SET status = 'done', finished_at = coalesce(finished_at, started_at), size_bytes = $1, sha256 = $2
		WHERE id = (SELECT max(id) FROM backups WHERE status = 'running')`
	if _, err := tx.ExecContext(ctx, own, res.Size, res.SHA256); err != nil {
		return res, fmt.Errorf("backup: own record: %w", err)
	}
	if err := markInterrupted(ctx, tx); err != nil {
		return res, err
	}
	if backupLineage == "" {
		// A backup older than the ledger: the migration made it a new
		// lineage; it continues the one it replaces, or the file's.
		if adopt := continued(targetLineage, fileLedger); adopt != "" {
			if err := erasure.Adopt(ctx, tx, adopt); err != nil {
				return res, err
			}
		}
	}
	missing, err := erasure.Missing(ctx, tx, ledger)
	if err != nil {
		return res, err
	}
	for _, e := range missing {
		if err := reapply(ctx, tx, e); err != nil {
			return res, err
		}
	}
	if err := erasure.Add(ctx, tx, missing); err != nil {
		return res, err
	}
	res.Reapplied = len(missing)
	ended, err := tx.ExecContext(ctx, `DELETE FROM sessions`)
	if err != nil {
		return res, fmt.Errorf("backup: end sessions: %w", err)
	}
	res.SessionsEnded, _ = ended.RowsAffected()
	if err := audit.Record(ctx, tx, audit.Actor{Name: "sistem (restore)"}, "backup.restore", "backup", "",
		map[string]any{"file": filepath.Base(o.File), "size_bytes": res.Size, "sha256": res.SHA256, "replaced": res.Replaced,
			"erasures_reapplied": res.Reapplied, "sessions_ended": res.SessionsEnded}); err != nil {
		return res, err
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("backup: commit: %w", err)
	}
	if o.Ledger != "" {
		if _, err := erasure.Mirror(ctx, db, o.Ledger); err != nil {
			o.Log.Warn("restore: the erasure ledger's file was not updated; the server writes it within a minute of starting", "file", o.Ledger, "err", err)
		}
	}
	return res, nil
}

// continued is the lineage a backup older than the ledger continues: the
// replaced database's, else the file's when it holds one only.
func continued(target string, file []erasure.Entry) string {
	if target != "" {
		return target
	}
	one := ""
	for _, e := range file {
		if one != "" && e.Ledger != one {
			return ""
		}
		one = e.Ledger
	}
	return one
}

// reapply does one erasure again, by the feature that made it.
func reapply(ctx context.Context, tx *sqlx.Tx, e erasure.Entry) error {
	switch e.Kind {
	case erasure.FaceConsentWithdrawn, erasure.FaceEnrolmentDeleted, erasure.KioskRevoked:
		return face.ReapplyErasure(ctx, tx, e)
	case erasure.UserRemoved:
		return users.ReapplyErasure(ctx, tx, e)
	case erasure.DataReset:
		return datareset.ReapplyErasure(ctx, tx, e)
	}
	return fmt.Errorf("backup: an erasure of unknown kind %q in the ledger", e.Kind)
}

func tableExists(ctx context.Context, db sqlx.QueryerContext, name string) (bool, error) {
	var ok bool
	if err := sqlx.GetContext(ctx, db, &ok, `SELECT to_regclass('public.' || $1) IS NOT NULL`, name); err != nil {
		return false, fmt.Errorf("backup: table %s: %w", name, err)
	}
	return ok, nil
}

// checkArchive reads the whole file: it must be a pg_dump custom-format
// archive; its size and sha256 go into the record.
func checkArchive(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", apperr.New(apperr.Invalid, "backup.file_unreadable", "file", path, "reason", err.Error())
	}
	defer f.Close()
	head := make([]byte, len(Magic))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != Magic {
		return 0, "", apperr.New(apperr.Invalid, "backup.file_not_backup", "file", path)
	}
	h := sha256.New()
	h.Write(head)
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", apperr.New(apperr.Invalid, "backup.file_unreadable", "file", path, "reason", err.Error())
	}
	return n + int64(len(head)), hex.EncodeToString(h.Sum(nil)), nil
}
