package backup_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/peterldowns/pgtestdb"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/backup"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// envOn starts the whole API on the database at dbURL, as the server
// would; dumpURL is its DATABASE_URL and so its direct URL, for the
// backup's lock and pg_dump (normally the same).
func envOn(t *testing.T, dbURL, dumpURL string) *apitest.Env {
	t.Helper()
	db, err := pg.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := config.Config{Addr: "127.0.0.1:0", BaseURL: "http://127.0.0.1", SessionIdle: time.Hour, SessionMaxAge: 24 * time.Hour,
		MaxBodyBytes: 1 << 20, LogFormat: "text", DataDir: t.TempDir(), DatabaseURL: dumpURL}
	a := auth.New(db, auth.Options{Idle: cfg.SessionIdle, MaxAge: cfg.SessionMaxAge}, discard)
	d := app.Deps{DB: db, Config: cfg, Log: discard, Auth: a}
	srv := api.New(d)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &apitest.Env{T: t, DB: db, Server: ts, API: srv, Deps: d}
}

// emptyURL is a fresh database with nothing in it, not even migrations.
func emptyURL(t *testing.T) string {
	t.Helper()
	return pgtestdb.Custom(t, pgtest.Config(t), pgtestdb.NoopMigrator{}).URL()
}

// download posts /admin/backups with the client's token and returns the
// answer whole.
func download(t *testing.T, env *apitest.Env, c *apitest.Client) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", env.Server.URL+"/api/v1/admin/backups", nil)
	req.Header.Set("Authorization", "Bearer "+c.Token)
	res, err := env.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

var tables = []string{"users", "role_permissions", "audit_log", "settings", "departments", "classes", "students", "student_syncs",
	"violation_categories", "violation_types", "sp_thresholds", "handling_types", "violations", "violation_photos", "handlings",
	"handling_participants", "warning_letters", "warning_letter_events", "point_audit", "attendance", "attendance_days",
	"journal_pushes", "attendance_unmatched", "notifications", "parent_messages", "backups"}

func counts(t *testing.T, db *sqlx.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tb := range tables {
		var n int
		if err := db.Get(&n, `SELECT count(*) FROM `+tb); err != nil {
			t.Fatalf("%s: %v", tb, err)
		}
		out[tb] = n
	}
	return out
}

// The demo school with its violations, letters and attendance, backed up
// through the API, restored into an empty database by the command line's
// code, then served again: the same rows and the same answers.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srcURL := pgtest.NewURL(t)
	src := envOn(t, srcURL, srcURL)
	now := time.Date(2026, 11, 6, 23, 30, 0, 0, time.UTC)
	must(t, pg.InTx(ctx, src.DB, func(tx *sqlx.Tx) error {
		return demo.TypesTx(ctx, tx)
	}))
	if _, err := demo.LoadSchool(ctx, src.DB, discard, io.Discard, demo.SchoolOptions{Now: now, Students: 300}); err != nil {
		t.Fatal(err)
	}
	if res, err := demo.LoadViolations(ctx, src.DB, discard, demo.ViolationOptions{Now: now}); err != nil || !res.Loaded {
		t.Fatalf("violations: %+v %v", res, err)
	}
	if res, err := demo.LoadAttendance(ctx, src.DB, discard, demo.AttendanceOptions{Now: now}); err != nil || !res.Loaded {
		t.Fatalf("attendance: %+v %v", res, err)
	}
	admin := src.As(perm.Admin)

	res, body := download(t, src, admin)
	if res.StatusCode != 200 {
		t.Fatalf("POST /admin/backups: %d %s", res.StatusCode, body)
	}
	cd := res.Header.Get("Content-Disposition")
	if !regexp.MustCompile(`^attachment; filename="tatib-[a-z0-9-]+-\d{8}-\d{4}\.dump"$`).MatchString(cd) {
		t.Errorf("Content-Disposition %q", cd)
	}
	if !bytes.HasPrefix(body, []byte(backup.Magic)) {
		t.Fatalf("not a custom-format archive: %q", body[:min(20, len(body))])
	}
	sum := sha256.Sum256(body)
	var list wire.BackupList
	admin.Do("GET", "/api/v1/admin/backups", nil).Want(200).JSON(&list)
	if len(list.Data) != 1 || list.PgDump == "" || list.Install != "" {
		t.Fatalf("list: %+v", list)
	}
	rec := list.Data[0]
	if rec.Status != "done" || rec.SizeBytes != int64(len(body)) || rec.SHA256 != hex.EncodeToString(sum[:]) ||
		rec.Via != backup.ViaBrowser || rec.CreatedByName == "" || rec.FinishedAt == nil || !strings.Contains(cd, rec.Filename) {
		t.Fatalf("record: %+v (file %d bytes)", rec, len(body))
	}
	var audited int
	must(t, src.DB.Get(&audited, `SELECT count(*) FROM audit_log WHERE action = 'backup.create' AND actor_id = $1`, admin.UserID))
	if audited != 1 {
		t.Errorf("audit entries: %d", audited)
	}
	before := counts(t, src.DB)
	for _, tb := range []string{"students", "violations", "handlings", "warning_letters", "attendance", "attendance_days", "point_audit"} {
		if before[tb] == 0 {
			t.Fatalf("the demo school has no %s", tb)
		}
	}
	file := filepath.Join(t.TempDir(), "backup.dump")
	must(t, os.WriteFile(file, body, 0o600))

	dstURL := emptyURL(t)
	// No erasure was made: the restore into an empty database needs no ledger file.
	got, err := backup.Restore(ctx, backup.RestoreOptions{URL: dstURL, File: file, Log: discard, WithoutLedger: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Replaced || got.SHA256 != rec.SHA256 || got.Size != rec.SizeBytes {
		t.Errorf("restore: %+v", got)
	}
	dst := envOn(t, dstURL, dstURL)
	after := counts(t, dst.DB)
	for _, tb := range tables {
		want := before[tb]
		if tb == "audit_log" {
			want++ // the restore's own entry
		}
		if after[tb] != want {
			t.Errorf("%s: %d rows after restore, %d before", tb, after[tb], before[tb])
		}
	}
	// The backup that made the file was running in its own snapshot; the
	// restored list says it finished, with this file's checksum.
	var restored wire.Backup
	must(t, dst.DB.Get(&restored, `SELECT id, status, sha256, size_bytes FROM backups WHERE id = $1`, rec.ID))
	if restored.Status != "done" || restored.SHA256 != rec.SHA256 || restored.SizeBytes != rec.SizeBytes {
		t.Errorf("restored record: %+v", restored)
	}

	// The same answers through the API, from a session opened on each.
	var letter struct{ ID, Student, Violation int64 }
	must(t, src.DB.Get(&letter.ID, `SELECT min(id) FROM warning_letters`))
	must(t, src.DB.Get(&letter.Student, `SELECT student_id FROM warning_letters WHERE id = $1`, letter.ID))
	must(t, src.DB.Get(&letter.Violation, `SELECT max(id) FROM violations WHERE student_id = $1`, letter.Student))
	var day struct {
		Class int64  `db:"class_id"`
		Date  string `db:"date"`
	}
	must(t, src.DB.Get(&day, `SELECT s.class_id, to_char(max(d.date), 'YYYY-MM-DD') AS date FROM attendance_days d JOIN students s ON s.id = d.student_id
		WHERE s.class_id IS NOT NULL GROUP BY s.class_id ORDER BY s.class_id LIMIT 1`))
	dstAdmin := dst.Login(usernameOf(t, src, admin.UserID), "rahasia123")
	for _, path := range []string{
		"/api/v1/students/" + itoa(letter.Student),
		"/api/v1/students/" + itoa(letter.Student) + "/points",
		"/api/v1/violations/" + itoa(letter.Violation),
		"/api/v1/warning-letters/" + itoa(letter.ID),
		"/api/v1/classes/" + itoa(day.Class) + "/attendance/" + day.Date,
		"/api/v1/violations?per_page=20",
	} {
		a := admin.Do("GET", path, nil).Want(200).Body
		b := dstAdmin.Do("GET", path, nil).Want(200).Body
		if !bytes.Equal(a, b) {
			t.Errorf("GET %s differs after the restore:\nbefore %s\nafter  %s", path, a, b)
		}
	}

	// A database with a school is replaced only when forced and confirmed.
	_, err = backup.Restore(ctx, backup.RestoreOptions{URL: dstURL, File: file, Log: discard})
	if apperr.Code(err) != apperr.Conflict || apperr.Key(err) != "backup.restore_not_empty" {
		t.Fatalf("restore over a school: %v", err)
	}
	asked := ""
	_, err = backup.Restore(ctx, backup.RestoreOptions{URL: dstURL, File: file, Force: true, Log: discard,
		Confirm: func(db string) (bool, error) { asked = db; return false, nil }})
	if apperr.Key(err) != "backup.restore_not_confirmed" || asked == "" {
		t.Fatalf("unconfirmed: %v (asked %q)", err, asked)
	}
	got, err = backup.Restore(ctx, backup.RestoreOptions{URL: dstURL, File: file, Force: true, Log: discard,
		Confirm: func(db string) (bool, error) { return db == asked, nil }})
	if err != nil || !got.Replaced {
		t.Fatalf("forced: %+v %v", got, err)
	}
	var n int
	must(t, dst.DB.Get(&n, `SELECT count(*) FROM violations`))
	if n != before["violations"] {
		t.Errorf("violations after the forced restore: %d, want %d", n, before["violations"])
	}
}

func usernameOf(t *testing.T, env *apitest.Env, id int64) string {
	t.Helper()
	var u string
	must(t, env.DB.Get(&u, `SELECT username FROM users WHERE id = $1`, id))
	return u
}

// Only the administrator backs up.
func TestForbidden(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for _, role := range []perm.Role{perm.BK, perm.WaliKelas} {
		c := env.As(role)
		for _, m := range []string{"GET", "POST"} {
			e := c.Do(m, "/api/v1/admin/backups", nil).Want(403).Err()
			if e.Error.Params["code"] != string(perm.DataBackup) {
				t.Errorf("%s %s: %+v", role, m, e)
			}
		}
	}
	var n int
	must(t, env.DB.Get(&n, `SELECT count(*) FROM backups`))
	if n != 0 {
		t.Errorf("%d backups recorded", n)
	}
}

// A second backup while one runs is refused; nothing is recorded for it.
func TestOneAtATime(t *testing.T) {
	t.Parallel()
	u := pgtest.NewURL(t)
	env := envOn(t, u, u)
	admin := env.As(perm.Admin)
	conn, err := env.DB.Connx(context.Background())
	must(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(context.Background(), `SELECT pg_advisory_lock($1)`, backup.LockKey)
	must(t, err)
	res, body := download(t, env, admin)
	if res.StatusCode != http.StatusConflict || !strings.Contains(string(body), `"backup.running"`) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	_, err = conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, backup.LockKey)
	must(t, err)
	if res, body := download(t, env, admin); res.StatusCode != 200 || !bytes.HasPrefix(body, []byte(backup.Magic)) {
		t.Fatalf("after the lock: %d", res.StatusCode)
	}
}

// pg_dump failing before its first byte (a stand-in that complains and
// exits 1): an error answer, and the list says failed with pg_dump's exit
// code. Not parallel: TATIB_PG_BIN is the process's.
func TestFailedBeforeFirstByte(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = --version ]; then echo 'pg_dump (PostgreSQL) 99.1'; exit 0; fi\n" +
		"echo 'pg_dump: error: connection to server failed' >&2; exit 1\n"
	must(t, os.WriteFile(filepath.Join(dir, "pg_dump"), []byte(script), 0o755))
	t.Setenv("TATIB_PG_BIN", dir)
	u := pgtest.NewURL(t)
	env := envOn(t, u, u)
	admin := env.As(perm.Admin)
	res, body := download(t, env, admin)
	if res.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), `"backup.failed"`) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var list wire.BackupList
	admin.Do("GET", "/api/v1/admin/backups", nil).Want(200).JSON(&list)
	if len(list.Data) != 1 || list.Data[0].Status != "failed" || !strings.Contains(list.Data[0].Error, "exit code 1") {
		t.Fatalf("%+v", list.Data)
	}
}

// A direct URL the lock's session cannot use (a wrong password): refused
// before anything is recorded or run, without the password in the answer.
func TestDirectURLRefused(t *testing.T) {
	t.Parallel()
	good := pgtest.NewURL(t)
	bad, _ := url.Parse(good)
	bad.User = url.UserPassword(bad.User.Username(), "wrong-password")
	env := envOn(t, good, bad.String())
	admin := env.As(perm.Admin)
	res, body := download(t, env, admin)
	if res.StatusCode < 500 || strings.Contains(string(body), "wrong-password") {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var n int
	must(t, env.DB.Get(&n, `SELECT count(*) FROM backups`))
	if n != 0 {
		t.Errorf("%d backups recorded", n)
	}
}

// Without pg_dump the list and the button say what to install; not
// parallel: TATIB_PG_BIN is the process's.
func TestMissingPgDump(t *testing.T) {
	t.Setenv("TATIB_PG_BIN", t.TempDir())
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	var list wire.BackupList
	admin.Do("GET", "/api/v1/admin/backups", nil, "Accept-Language", "en").Want(200).JSON(&list)
	if list.PgDump != "" || !regexp.MustCompile(`apt install postgresql-client-\d+`).MatchString(list.Install) || !strings.Contains(list.Install, "Install") {
		t.Fatalf("%+v", list)
	}
	admin.Do("GET", "/api/v1/admin/backups", nil, "Accept-Language", "id").Want(200).JSON(&list)
	if !strings.Contains(list.Install, "Pasang") {
		t.Errorf("id: %q", list.Install)
	}
	e := admin.Do("POST", "/api/v1/admin/backups", nil).Want(503).Err()
	if e.Error.MessageCode != "backup.pg_dump_missing" {
		t.Errorf("%+v", e)
	}
	_, err := backup.Restore(context.Background(), backup.RestoreOptions{URL: emptyURL(t), File: writeDump(t)})
	if apperr.Key(err) != "backup.pg_restore_missing" {
		t.Errorf("restore: %v", err)
	}
}

// pg_dump failing half-way (a stand-in that writes the archive's start,
// complains and exits 3): the download breaks off instead of ending like
// a whole file, and the list says failed with the exit code and the
// complaint. Not parallel: TATIB_PG_BIN is the process's.
func TestFailedHalfWay(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = --version ]; then echo 'pg_dump (PostgreSQL) 99.1'; exit 0; fi\n" +
		"printf 'PGDMP-partial'; head -c 300000 /dev/zero; echo 'pg_dump: error: disk on fire' >&2; exit 3\n"
	must(t, os.WriteFile(filepath.Join(dir, "pg_dump"), []byte(script), 0o755))
	t.Setenv("TATIB_PG_BIN", dir)
	u := pgtest.NewURL(t)
	env := envOn(t, u, u)
	admin := env.As(perm.Admin)
	req, _ := http.NewRequest("POST", env.Server.URL+"/api/v1/admin/backups", nil)
	req.Header.Set("Authorization", "Bearer "+admin.Token)
	res, err := env.Server.Client().Do(req)
	must(t, err)
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || err == nil {
		t.Fatalf("status %d, read %d bytes, err %v: want 200 and a broken body", res.StatusCode, len(b), err)
	}
	var list wire.BackupList
	admin.Do("GET", "/api/v1/admin/backups", nil).Want(200).JSON(&list)
	if len(list.Data) != 1 || list.Data[0].Status != "failed" || !strings.Contains(list.Data[0].Error, "exit code 3") ||
		!strings.Contains(list.Data[0].Error, "disk on fire") || list.Data[0].SHA256 != "" {
		t.Fatalf("%+v", list.Data)
	}
}

func writeDump(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.dump")
	must(t, os.WriteFile(p, []byte(backup.Magic+"not really"), 0o600))
	return p
}

// A file that is not a pg_dump archive is refused before anything runs.
func TestRestoreNotABackup(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "notes.txt")
	must(t, os.WriteFile(p, []byte("hello"), 0o600))
	_, err := backup.Restore(context.Background(), backup.RestoreOptions{URL: emptyURL(t), File: p})
	if apperr.Code(err) != apperr.Invalid || apperr.Key(err) != "backup.file_not_backup" {
		t.Fatalf("%v", err)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"SMA Negeri 1 Contoh":   "sma-negeri-1-contoh",
		"  SMK  Bakti—Nusa! ":   "smk-bakti-nusa",
		"Sekolah Ümmet 2":       "sekolah-mmet-2",
		"":                      "",
		strings.Repeat("a", 60): strings.Repeat("a", 40),
	} {
		if got := backup.Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseConn(t *testing.T) {
	for _, tc := range []struct{ in, dsn, pw, db string }{
		{"postgres://tatib:s3cret@127.0.0.1:54329/tatib?sslmode=disable", "postgres://tatib@127.0.0.1:54329/tatib?sslmode=disable", "s3cret", "tatib"},
		{"postgresql://u@h/d?password=p&sslmode=require", "postgresql://u@h/d?sslmode=require", "p", "d"},
		{"host=/run/pg dbname='my db' user=u password='a b\\'c'", "host='/run/pg' dbname='my db' user='u'", "a b'c", "my db"},
		// lib/pq's own parameters, which pg_dump refuses, stay behind.
		{"postgres://u:p@h/d?binary_parameters=yes&sslmode=disable", "postgres://u@h/d?sslmode=disable", "p", "d"},
		{"host=h dbname=d binary_parameters=yes user=u", "host='h' dbname='d' user='u'", "", "d"},
	} {
		c, err := backup.ParseConn(tc.in)
		if err != nil || c.DSN != tc.dsn || c.Password != tc.pw || c.Database != tc.db {
			t.Errorf("ParseConn(%q) = %+v %v", tc.in, c, err)
		}
	}
	if _, err := backup.ParseConn("host"); err == nil {
		t.Error("no error for a broken string")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
