// Package backup makes and restores whole-database backups with
// PostgreSQL's own pg_dump and pg_restore (docs/data-safety.md, "Backup
// and restore"). The dump streams to whoever asked (the admin's browser or
// desktop app, or the command line); Tatib keeps only a record of it.
package backup

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Where a backup was asked for (the backups.via column).
const (
	ViaBrowser = "browser"
	ViaDesktop = "desktop"
	ViaCLI     = "cli"
)

// LockKey is the advisory lock one backup at a time holds ("tatibbkp").
const LockKey int64 = 0x7461746962626b70

// Service makes backups of the database it is connected to.
type Service struct {
	DB *sqlx.DB
	// URL reaches the same database with a session of its own
	// (TATIB_DATABASE_DIRECT_URL, else DATABASE_URL): pg_dump and the
	// one-at-a-time lock need one. Through a pooler in transaction mode
	// the lock would stay with an idle pooled connection, and pg_dump's
	// settings (an empty search_path) would be left on pooled ones.
	URL string
	// Getenv reads TATIB_PG_BIN; os.Getenv when nil.
	Getenv func(string) string
	// Now is the clock of the file name; time.Now when nil.
	Now func() time.Time

	// dumping: this process runs a backup, so its running record is
	// not left over (and List need not open a session to find out).
	dumping atomic.Bool
}

func (s *Service) getenv(k string) string {
	if s.Getenv != nil {
		return s.Getenv(k)
	}
	return os.Getenv(k)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// DumpOptions say who asked for a backup and how.
type DumpOptions struct {
	Via   string
	Actor audit.Actor
	// Begin is called once, when pg_dump has produced its first bytes and
	// before any is written (the HTTP handler sets its headers there). A
	// backup that fails before that point has written nothing.
	Begin func(b api.Backup)
}

// ErrStreamFailed marks a backup that failed after Begin: part of the file
// is written already, so the caller cannot answer with an error message.
var ErrStreamFailed = errors.New("backup: failed while streaming")

// Dump writes a pg_dump custom-format archive of the database to w,
// recording it in backups (running, then done with its size and sha256, or
// failed with pg_dump's complaint). One backup at a time: a second is a
// conflict. pg_dump reads everything in one transaction, so the archive is
// a consistent snapshot while the school goes on working.
func (s *Service) Dump(ctx context.Context, w io.Writer, o DumpOptions) (api.Backup, error) {
	tools, err := Find(ctx, s.DB, s.getenv, "pg_dump")
	if err != nil {
		return api.Backup{}, err
	}
	if !tools.Usable() {
		return api.Backup{}, missing("backup.pg_dump_missing", tools)
	}
	conn, err := ParseConn(s.URL)
	if err != nil {
		return api.Backup{}, apperr.New(apperr.Unavailable, "backup.no_database_url")
	}
	lock, end, err := pg.Session(ctx, s.URL)
	if err != nil {
		return api.Backup{}, sessionError(err)
	}
	defer end()
	var got bool
	if err := lock.GetContext(ctx, &got, `SELECT pg_try_advisory_lock($1)`, LockKey); err != nil {
		return api.Backup{}, fmt.Errorf("backup: lock: %w", err)
	}
	if !got {
		return api.Backup{}, apperr.New(apperr.Conflict, "backup.running")
	}
	// Ending the session (end) releases the lock, even when the unlock
	// cannot be sent.
	defer func() {
		_, _ = lock.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, LockKey)
	}()
	s.dumping.Store(true)
	defer s.dumping.Store(false)

	name, err := s.filename(ctx)
	if err != nil {
		return api.Backup{}, err
	}
	rec, err := s.begin(ctx, name, o)
	if err != nil {
		return api.Backup{}, err
	}
	// From here on the record says how it ended, even when the request's
	// context is gone.
	fin := context.WithoutCancel(ctx)

	stderr := &tail{max: 2000}
	cmd := exec.CommandContext(ctx, tools.Tool.Path, "--format=custom", "--no-password", "--dbname="+conn.DSN)
	cmd.Env = conn.env()
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return s.fail(fin, rec, err.Error(), nil)
	}
	if err := cmd.Start(); err != nil {
		return s.fail(fin, rec, err.Error(), nil)
	}
	br := bufio.NewReaderSize(out, 256<<10)
	if _, err := br.Peek(1); err != nil {
		werr := cmd.Wait()
		return s.fail(fin, rec, reason(ctx, werr, stderr), nil)
	}
	if o.Begin != nil {
		o.Begin(rec)
	}
	h := sha256.New()
	n, cerr := io.Copy(io.MultiWriter(w, h), br)
	if cerr != nil {
		// The reader went away: stop pg_dump rather than let it block.
		_ = cmd.Process.Kill()
	}
	werr := cmd.Wait()
	if cerr != nil || werr != nil {
		why := reason(ctx, werr, stderr)
		if cerr != nil {
			why = "write: " + cerr.Error()
		}
		return s.fail(fin, rec, why, ErrStreamFailed)
	}
	const q = `UPDATE backups SET status = 'done', finished_at = now(), size_bytes = $2, sha256 = $3 WHERE id = $1
		RETURNING ` + columns
	var done api.Backup
	if err := s.DB.GetContext(fin, &done, q, rec.ID, n, hex.EncodeToString(h.Sum(nil))); err != nil {
		return rec, fmt.Errorf("backup: finish: %w", err)
	}
	return done, nil
}

// sessionError is the answer when the session for the lock cannot be
// opened: the database is out of reach for now.
func sessionError(err error) error {
	if pg.IsUnavailable(err) {
		return apperr.New(apperr.Unavailable, "server.database_unavailable")
	}
	return fmt.Errorf("backup: session: %w", err)
}

// missing is the error of a server without a usable program.
func missing(key string, t Tools) error {
	return apperr.New(apperr.Unavailable, key, "major", t.ServerMajor)
}

func reason(ctx context.Context, err error, stderr *tail) string {
	if ctx.Err() != nil {
		return "cancelled: " + ctx.Err().Error()
	}
	msg := strings.TrimSpace(stderr.String())
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return strings.TrimSpace(fmt.Sprintf("exit code %d: %s", ee.ExitCode(), msg))
	}
	if err != nil {
		return strings.TrimSpace(err.Error() + ": " + msg)
	}
	if msg == "" {
		return "pg_dump wrote nothing"
	}
	return msg
}

const columns = `id, started_at, finished_at, status, size_bytes, sha256, filename, via, error, created_by_name`

// begin stores the running record and the audit entry. Records left
// running by a server that stopped mid-backup are marked failed: the lock
// is ours, so nothing else is running.
func (s *Service) begin(ctx context.Context, name string, o DumpOptions) (api.Backup, error) {
	var rec api.Backup
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return rec, fmt.Errorf("backup: begin: %w", err)
	}
	defer tx.Rollback()
	if err := markInterrupted(ctx, tx); err != nil {
		return rec, err
	}
	var by *int64
	if o.Actor.ID != 0 {
		by = &o.Actor.ID
	}
	via := o.Via
	if via == "" {
		via = ViaBrowser
	}
	const q = `INSERT INTO backups (filename, via, created_by, created_by_name) VALUES ($1, $2, $3, $4) RETURNING ` + columns
	if err := tx.GetContext(ctx, &rec, q, name, via, by, o.Actor.Display()); err != nil {
		return rec, fmt.Errorf("backup: record: %w", err)
	}
	if err := audit.Record(ctx, tx, o.Actor, "backup.create", "backup", fmt.Sprint(rec.ID),
		map[string]any{"filename": name, "via": via}); err != nil {
		return rec, err
	}
	if err := tx.Commit(); err != nil {
		return rec, fmt.Errorf("backup: commit: %w", err)
	}
	return rec, nil
}

func markInterrupted(ctx context.Context, q sqlx.ExecerContext) error {
	const stale = `UPDATE backups SET status = 'failed', finished_at = now(), error = 'interrupted: the server stopped before the backup finished'
		WHERE status = 'running'`
	if _, err := q.ExecContext(ctx, stale); err != nil {
		return fmt.Errorf("backup: stale records: %w", err)
	}
	return nil
}

// fail records why the backup failed and returns the error to give: wrap
// when part of the file is out already, else a message for the admin.
func (s *Service) fail(ctx context.Context, rec api.Backup, why string, wrap error) (api.Backup, error) {
	const q = `UPDATE backups SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1 RETURNING ` + columns
	if err := s.DB.GetContext(ctx, &rec, q, rec.ID, why); err != nil {
		return rec, fmt.Errorf("backup: record failure: %w", err)
	}
	if wrap != nil {
		return rec, fmt.Errorf("%w: %s", wrap, why)
	}
	return rec, apperr.New(apperr.Internal, "backup.failed", "reason", why)
}

// filename is tatib-<school slug>-<YYYYMMDD-HHMM>.dump in Jakarta time.
func (s *Service) filename(ctx context.Context) (string, error) {
	p, err := school.LoadProfile(ctx, s.DB)
	if err != nil {
		return "", err
	}
	stamp := schoolday.In(s.now()).Format("20060102-1504")
	if slug := Slug(p.Name); slug != "" {
		return "tatib-" + slug + "-" + stamp + ".dump", nil
	}
	return "tatib-" + stamp + ".dump", nil
}

// Slug is name in lower-case ASCII letters and digits joined by dashes, at
// most 40 characters: "SMA Negeri 1 Contoh" → "sma-negeri-1-contoh".
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= 40 {
				break
			}
			continue
		}
		dash = true
	}
	return strings.TrimRight(b.String(), "-")
}

// List returns the newest records first (at most limit). Records left
// running by a stopped server are marked failed first, when no backup
// holds the lock.
func (s *Service) List(ctx context.Context, limit int) ([]api.Backup, error) {
	if err := s.sweep(ctx); err != nil {
		return nil, err
	}
	const q = `SELECT ` + columns + ` FROM backups ORDER BY started_at DESC, id DESC LIMIT $1`
	out := []api.Backup{}
	if err := s.DB.SelectContext(ctx, &out, q, limit); err != nil {
		return nil, fmt.Errorf("backup: list: %w", err)
	}
	return out, nil
}

func (s *Service) sweep(ctx context.Context) error {
	var running bool
	if err := s.DB.GetContext(ctx, &running, `SELECT EXISTS (SELECT 1 FROM backups WHERE status = 'running')`); err != nil {
		return fmt.Errorf("backup: running: %w", err)
	}
	if !running || s.dumping.Load() {
		return nil
	}
	c, end, err := pg.Session(ctx, s.URL)
	if err != nil {
		return sessionError(err)
	}
	defer end()
	var got bool
	if err := c.GetContext(ctx, &got, `SELECT pg_try_advisory_lock($1)`, LockKey); err != nil || !got {
		return err
	}
	defer c.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, LockKey)
	return markInterrupted(ctx, c)
}

// Last returns the newest finished backup, nil when there is none (for the
// reset screen's "last backup").
func Last(ctx context.Context, q sqlx.QueryerContext) (*api.Backup, error) {
	var b api.Backup
	err := sqlx.GetContext(ctx, q, &b, `SELECT `+columns+` FROM backups WHERE status = 'done' ORDER BY started_at DESC, id DESC LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("backup: last: %w", err)
	}
	return &b, nil
}

// tail keeps the last max bytes written to it (a program's stderr).
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
		if i := bytes.IndexByte(t.buf, '\n'); i >= 0 && i < len(t.buf)-1 {
			t.buf = t.buf[i+1:]
		}
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func itoa(n int64) string { return fmt.Sprint(n) }
