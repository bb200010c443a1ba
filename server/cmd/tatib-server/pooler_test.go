package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jmoiron/sqlx"
	"github.com/peterldowns/pgtestdb"

	"github.com/tatib/tatib/server/internal/backup"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// TestBehindTransactionPooler runs two real servers behind a real PgBouncer
// in transaction mode (the usual managed-PostgreSQL setup), each with
// TATIB_DATABASE_DIRECT_URL pointing at PostgreSQL itself. They start
// together on an empty database (one waits at the migration lock), then:
// a concurrent workload of mixed requests through both, all answered 2xx;
// a violation recorded on A reaches a WebSocket on B; a permission revoked
// on A is refused on B within 10 s; a backup on A and then on B (the lock
// released); and a third server whose direct URL is the pooler refuses to
// start, saying what to change. It logs the connections PgBouncer and
// PostgreSQL saw (docs/deployment.md quotes them).
func TestBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	bouncer := pgbouncerBinary(t)
	bin := serverBin(t)

	// An empty database: both replicas migrate it at once.
	conf := pgtestdb.Custom(t, pgtest.Config(t), pgtestdb.NoopMigrator{})
	direct := conf.URL()
	pool := startPgBouncer(t, bouncer, conf, "ignore_startup_parameters = extra_float_digits")
	pooled := pool.url(conf.Database)

	const password = "admin-pooler-1"
	servers := make([]*server, 2)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			servers[i] = startServer(t, bin, "DATABASE_URL="+pooled, "TATIB_DATABASE_DIRECT_URL="+direct,
				"TATIB_ADMIN_PASSWORD="+password)
		}()
	}
	// And one whose direct URL is the pooler too (unset: DATABASE_URL).
	refused := make(chan string, 1)
	go func() {
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(), "DATABASE_URL="+pooled, "TATIB_DATABASE_DIRECT_URL=", "TATIB_ADDR="+freeAddr(t),
			"TATIB_DEMO=0", "TATIB_DATA_DIR="+t.TempDir(), "TATIB_ADMIN_PASSWORD="+password)
		out, err := cmd.CombinedOutput()
		refused <- fmt.Sprintf("%v\n%s", err, out)
	}()
	// PgBouncer as installed refuses a parameter lib/pq sends: the server
	// says which setting to add.
	strict := startPgBouncer(t, bouncer, conf)
	cmd := exec.Command(bin, "migrate")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+strict.url(conf.Database), "TATIB_DATABASE_DIRECT_URL="+direct, "TATIB_DATA_DIR="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "ignore_startup_parameters = extra_float_digits") {
		t.Errorf("behind a PgBouncer without ignore_startup_parameters: %v\n%s", err, out)
	}
	wg.Wait()
	for i, s := range servers {
		if !s.waitReady(60 * time.Second) {
			t.Fatalf("server %c did not start:\n%s", 'A'+i, s.log())
		}
	}
	a, b := servers[0], servers[1]

	db := sqlx.MustOpen("postgres", direct)
	defer db.Close()
	var classID, studentID, typeID int64
	must(t, db.Get(&classID, `INSERT INTO classes (name, grade) VALUES ('XI IPA 1', 11) RETURNING id`))
	must(t, db.Get(&studentID, `INSERT INTO students (source_id, full_name, nisn, nis, class_id)
		VALUES (9001, 'Budi Santoso', '0051234567', '2401', $1) RETURNING id`, classID))
	must(t, db.Get(&typeID, `INSERT INTO violation_types (name, slug, points, category_id)
		VALUES ('Terlambat masuk kelas', 'terlambat-masuk-kelas', 1, (SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`))

	admin := login(t, a.base, "admin", password)
	if status, body := call(t, "POST", a.base+"/api/v1/users", admin,
		map[string]string{"username": "bk1", "name": "Bu BK", "role": string(perm.BK), "password": "rahasia-bk-1"}); status != 201 {
		t.Fatalf("create bk: %d %s", status, body)
	}
	bk := login(t, b.base, "bk1", "rahasia-bk-1")
	// Each worker signs in as a user of its own, as a school's staff do: one
	// username's sign-ins are capped at five in flight (the throttle reserves
	// an attempt before the password is checked, so a burst of guesses cannot
	// slip past it), and eight workers signing in as bk1 at once on a slow
	// machine met that cap.
	for w := range 8 {
		u := fmt.Sprintf("guru%d", w+1)
		if status, body := call(t, "POST", a.base+"/api/v1/users", admin,
			map[string]string{"username": u, "name": "Guru " + u, "role": string(perm.BK), "password": "rahasia-" + u}); status != 201 {
			t.Fatalf("create %s: %d %s", u, status, body)
		}
	}

	// The workload: mixed reads and writes through both replicas at once.
	stop := pool.sample(t, conf.Database, db)
	var failures []string
	var mu sync.Mutex
	var ids []int64
	start := time.Now()
	const workers, each = 8, 25
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s, token := servers[(w+i)%2], admin
				if i%3 == 1 {
					token = bk
				}
				method, path, body := "GET", "", any(nil)
				switch i % 8 {
				case 0:
					method, path, body = "POST", "/api/v1/violations", map[string]any{"student_id": studentID, "type_ids": []int64{typeID}, "location": "Kantin"}
				case 1:
					path = "/api/v1/violations?student_id=" + strconv.FormatInt(studentID, 10) + "&page=1"
				case 2:
					path = "/api/v1/students?q=Budi&class_id=" + strconv.FormatInt(classID, 10)
				case 3:
					path = "/api/v1/notifications/unread-count"
				case 4:
					path = "/api/v1/students/" + strconv.FormatInt(studentID, 10) + "/points"
				case 5:
					u := fmt.Sprintf("guru%d", w+1)
					method, path, body = "POST", "/api/v1/auth/login", map[string]string{"username": u, "password": "rahasia-" + u}
					token = ""
				case 6:
					path = "/api/v1/auth/me"
				case 7:
					path = "/api/v1/notifications"
				}
				status, out := do(method, s.base+path, token, body)
				mu.Lock()
				if status < 200 || status > 299 {
					failures = append(failures, fmt.Sprintf("%s %s on %s: %d %s", method, path, s.name, status, out))
				} else if method == "POST" && strings.HasSuffix(path, "/violations") {
					var res wire.CreateViolationsResponse
					_ = json.Unmarshal(out, &res)
					for _, v := range res.Violations {
						ids = append(ids, v.ID)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	figures := stop()
	if len(failures) > 0 {
		t.Fatalf("%d of %d requests failed, e.g.:\n%s", len(failures), workers*each, strings.Join(failures[:min(5, len(failures))], "\n"))
	}
	if want := workers * ((each + 7) / 8); len(ids) != want {
		t.Errorf("%d violations recorded, want %d", len(ids), want)
	}
	t.Logf("%d requests from %d clients over 2 replicas in %s; %s", workers*each, workers, took.Round(time.Millisecond), figures)

	// A notification recorded on A reaches a WebSocket on B.
	if status, body := call(t, "POST", b.base+"/api/v1/notifications/read-all", bk, nil); status != 204 && status != 200 {
		t.Fatalf("read-all: %d %s", status, body)
	}
	h := http.Header{"Authorization": {"Bearer " + bk}}
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(b.base, "http")+"/api/v1/ws", h)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	next(t, ws, wire.WSUnread, 10*time.Second)
	var rec wire.CreateViolationsResponse
	status, body := call(t, "POST", a.base+"/api/v1/violations", admin, map[string]any{"student_id": studentID, "type_ids": []int64{typeID}, "location": "Gerbang"})
	if status != 201 || json.Unmarshal(body, &rec) != nil || len(rec.Violations) != 1 {
		t.Fatalf("record on A: %d %s", status, body)
	}
	sent := time.Now()
	want := "/violations/" + strconv.FormatInt(rec.Violations[0].ID, 10)
	for m := next(t, ws, wire.WSNotification, 10*time.Second); m.URL != want; m = next(t, ws, wire.WSNotification, 10*time.Second) {
	}
	t.Logf("notification recorded on A reached B's WebSocket in %s", time.Since(sent).Round(time.Millisecond))

	// A permission revoked on A is refused on B within 10 s.
	if status, body := call(t, "GET", b.base+"/api/v1/violations", bk, nil); status != 200 {
		t.Fatalf("bk before the revocation: %d %s", status, body)
	}
	var roles wire.List[wire.RoleInfo]
	status, body = call(t, "GET", a.base+"/api/v1/roles", admin, nil)
	if status != 200 || json.Unmarshal(body, &roles) != nil {
		t.Fatalf("roles: %d %s", status, body)
	}
	var kept []perm.Name
	for _, r := range roles.Data {
		if r.Role == perm.BK {
			for _, p := range r.Permissions {
				if p != perm.ViolationsView {
					kept = append(kept, p)
				}
			}
		}
	}
	if status, body := call(t, "PUT", a.base+"/api/v1/roles/bk/permissions", admin, map[string]any{"permissions": kept}); status != 200 {
		t.Fatalf("revoke on A: %d %s", status, body)
	}
	revoked := time.Now()
	for {
		status, _ := call(t, "GET", b.base+"/api/v1/violations", bk, nil)
		if status == 403 {
			break
		}
		if time.Since(revoked) > 10*time.Second {
			t.Fatalf("B still answers %d 10 s after the revocation on A", status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("permission revoked on A refused on B after %s", time.Since(revoked).Round(time.Millisecond))

	// A backup on A, then on B: the lock was released, and pg_dump left
	// nothing on pooled connections (requests after it still work).
	for _, s := range servers {
		status, body := do("POST", s.base+"/api/v1/admin/backups", admin, nil)
		if status != 200 || !bytes.HasPrefix(body, []byte("PGDMP")) {
			t.Fatalf("backup on %s: %d %.300s", s.name, status, body)
		}
	}
	var free bool
	must(t, db.Get(&free, `SELECT pg_try_advisory_lock($1) AND pg_advisory_unlock($1)`, backup.LockKey))
	if !free {
		t.Error("the backup lock is held after the backups")
	}
	for i := range 40 {
		s := servers[i%2]
		if status, body := do("GET", s.base+"/api/v1/students?q=Budi", admin, nil); status != 200 {
			t.Fatalf("after the backups, on %s: %d %s", s.name, status, body)
		}
	}

	select {
	case out := <-refused:
		t.Logf("the server with the pooler as its direct URL: %s", out)
		if !strings.Contains(out, "exit status 1") || !strings.Contains(out, "TATIB_DATABASE_DIRECT_URL") || !strings.Contains(out, "transaction mode") {
			t.Errorf("the server with the pooler as its direct URL:\n%s", out)
		}
	case <-time.After(30 * time.Second):
		t.Error("the server with the pooler as its direct URL did not refuse to start")
	}
	// Both migrated the empty database, one after the other: the first
	// applied everything, the second waited and found nothing to do.
	migrated := 0
	for _, s := range servers {
		if strings.Contains(s.log(), "migration applied") {
			migrated++
		}
	}
	if migrated != 1 {
		t.Errorf("%d servers applied migrations, want 1", migrated)
	}
	for _, s := range servers {
		if l := s.log(); strings.Contains(l, "level=ERROR") || strings.Contains(l, "prepared statement") {
			t.Errorf("server %s logged errors:\n%s", s.name, l)
		}
	}
}

// pgbouncerBinary finds PgBouncer (Debian's package puts it in /usr/sbin),
// or skips: scripts/test-deps.sh installs it for make test.
func pgbouncerBinary(t *testing.T) string {
	if p, err := exec.LookPath("pgbouncer"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/pgbouncer", "/usr/local/sbin/pgbouncer", "/usr/local/bin/pgbouncer"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("pgbouncer is not installed (Debian: apt-get install pgbouncer; scripts/test-deps.sh installs it for make test)")
	return ""
}

// pgBouncer is a PgBouncer in transaction mode in front of the test
// cluster, with its default pool size (20).
type pgBouncer struct {
	addr, user, password string
	out                  *syncBuffer
}

// startPgBouncer starts one with the extra settings lines.
func startPgBouncer(t *testing.T, bin string, conf *pgtestdb.Config, extra ...string) *pgBouncer {
	t.Helper()
	dir := t.TempDir()
	p := &pgBouncer{addr: freeAddr(t), user: conf.User, password: conf.Password, out: &syncBuffer{}}
	host, port, _ := strings.Cut(p.addr, ":")
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = %s
listen_port = %s
unix_socket_dir =
auth_type = scram-sha-256
auth_file = %s
pool_mode = transaction
max_client_conn = 200
default_pool_size = 20
admin_users = %s
`, conf.Host, conf.Port, host, port, filepath.Join(dir, "userlist.txt"), conf.User) + strings.Join(extra, "\n") + "\n"
	if os.Geteuid() == 0 {
		// PgBouncer refuses to run as root; it drops to this user (it
		// writes no files: it logs to standard error).
		u := "postgres"
		if _, err := user.Lookup(u); err != nil {
			u = "nobody"
		}
		ini += "user = " + u + "\n"
	}
	must(t, os.WriteFile(filepath.Join(dir, "pgbouncer.ini"), []byte(ini), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "userlist.txt"), []byte(fmt.Sprintf("%q %q\n", conf.User, conf.Password)), 0o644))
	cmd := exec.Command(bin, filepath.Join(dir, "pgbouncer.ini"))
	cmd.Stdout, cmd.Stderr = p.out, p.out
	must(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("pgbouncer:\n%s", p.out.tail(4000))
		}
	})
	for i := 0; ; i++ {
		if strings.Contains(p.out.String(), "process up") {
			return p
		}
		if i > 100 {
			t.Fatalf("pgbouncer did not start:\n%s", p.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *pgBouncer) url(database string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(p.user, p.password), Host: p.addr, Path: "/" + database, RawQuery: "sslmode=disable"}
	return u.String()
}

// sample watches PgBouncer's pool of database and PostgreSQL's backends
// on it (seen through direct) until the returned function is called, which
// says the peaks.
func (p *pgBouncer) sample(t *testing.T, database string, direct *sqlx.DB) func() string {
	t.Helper()
	admin := sqlx.MustOpen("postgres", p.url("pgbouncer"))
	admin.SetMaxOpenConns(1)
	done, result := make(chan struct{}), make(chan string, 1)
	go func() {
		defer admin.Close()
		peak := map[string]int{}
		for {
			rows, err := admin.Queryx("SHOW POOLS")
			if err == nil {
				for rows.Next() {
					row := map[string]any{}
					if rows.MapScan(row) != nil || fmt.Sprint(asText(row["database"])) != database {
						continue
					}
					n := func(k string) int { v, _ := strconv.Atoi(asText(row[k])); return v }
					row["wait_us"] = strconv.Itoa(n("maxwait")*1_000_000 + n("maxwait_us"))
					for _, k := range []string{"cl_active", "cl_waiting", "sv_active", "sv_idle", "sv_used", "wait_us"} {
						peak[k] = max(peak[k], n(k))
					}
				}
				rows.Close()
			}
			var backends struct {
				All    int `db:"all"`
				Listen int `db:"listen"`
			}
			const q = `SELECT count(*) AS all, count(*) FILTER (WHERE query LIKE 'LISTEN%') AS listen
				FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
			if direct.Get(&backends, q) == nil {
				peak["pg_all"] = max(peak["pg_all"], backends.All)
				peak["pg_listen"] = max(peak["pg_listen"], backends.Listen)
			}
			select {
			case <-done:
				result <- fmt.Sprintf("PgBouncer's pool at its peak: %d server connections in use (%d idle), %d clients active, %d waiting, "+
					"longest wait %.1f ms; PostgreSQL: at most %d connections to the database, %d of them listening",
					peak["sv_active"], peak["sv_idle"]+peak["sv_used"], peak["cl_active"], peak["cl_waiting"], float64(peak["wait_us"])/1000,
					peak["pg_all"], peak["pg_listen"])
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() string {
		close(done)
		return <-result
	}
}

func asText(v any) string {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// server is one tatib-server process.
type server struct {
	name, base string
	out        *syncBuffer
}

var serverNames = struct {
	sync.Mutex
	n int
}{}

func startServer(t *testing.T, bin string, env ...string) *server {
	serverNames.Lock()
	s := &server{name: string(rune('A' + serverNames.n)), out: &syncBuffer{}}
	serverNames.n++
	serverNames.Unlock()
	addr := freeAddr(t)
	s.base = "http://" + addr
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append([]string{"TATIB_ADDR=" + addr, "TATIB_DEMO=0", "TATIB_DATA_DIR=" + t.TempDir()}, env...)...)
	cmd.Stdout, cmd.Stderr = s.out, s.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if t.Failed() {
			t.Logf("server %s:\n%s", s.name, s.out.tail(6000))
		}
	})
	return s
}

func (s *server) waitReady(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if res, err := http.Get(s.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return true
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

func (s *server) log() string { return s.out.String() }

// do is call without failing the test (for the workload's goroutines).
func do(method, url, token string, v any) (int, []byte) {
	var rd io.Reader
	if v != nil {
		b, _ := json.Marshal(v)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// next reads WebSocket messages until one of type typ arrives within d.
func next(t *testing.T, c *websocket.Conn, typ string, d time.Duration) wire.WSMessage {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	for {
		_, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for %s: %v", typ, err)
		}
		var m wire.WSMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("message %s: %v", b, err)
		}
		if m.Type == typ {
			return m
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a process's output and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *syncBuffer) tail(n int) string {
	s := b.String()
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
