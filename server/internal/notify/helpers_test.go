package notify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/violationtype"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// replica is one server process: its own pool, hub and listener on the
// shared database.
type replica struct {
	Env  *apitest.Env
	Deps app.Deps
	ts   *httptest.Server
	db   *sqlx.DB
	done bool
	// stopListener ends the replica's listener and waits for it.
	stopListener func()
}

// newReplica starts a server on the database at url, as a separate
// process would.
func newReplica(t testing.TB, url string) *replica {
	t.Helper()
	db, err := pg.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{Addr: "127.0.0.1:0", BaseURL: "http://127.0.0.1", SessionIdle: time.Hour, SessionMaxAge: 24 * time.Hour,
		MaxBodyBytes: 1 << 20, LogFormat: "text", DataDir: t.TempDir(), DatabaseURL: url}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	l := listen.New(url, log)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { l.Run(ctx); close(stopped) }()
	d := app.Deps{DB: db, Config: cfg, Log: log, Auth: auth.New(db, auth.Options{Idle: cfg.SessionIdle, MaxAge: cfg.SessionMaxAge}, log), Listen: l}
	srv := api.New(d)
	ts := httptest.NewServer(srv)
	r := &replica{Env: &apitest.Env{T: t, DB: db, Server: ts, API: srv, Deps: d}, Deps: d, ts: ts, db: db,
		stopListener: func() { cancel(); <-stopped }}
	t.Cleanup(r.Stop)
	return r
}

// Stop ends the replica as a process exit would: sockets, listener, pool.
func (r *replica) Stop() {
	if r.done {
		return
	}
	r.done = true
	r.Env.API.Hub.Close()
	r.stopListener()
	r.ts.Close()
	r.db.Close()
}

// school is a database with two classes and their homeroom teachers, a
// student in each and the default violation types.
type school struct {
	URL             string
	A               *replica
	ClassA, ClassB  int64
	TeacherA        *apitest.Client
	TeacherB        *apitest.Client
	Admin           *apitest.Client
	StudentA        int64
	StudentB        int64
	TypeID          int64
	AlphaID, LateID int64
}

func newSchool(t testing.TB) *school {
	t.Helper()
	url := pgtest.NewURL(t)
	a := newReplica(t, url)
	if err := violationtype.Boot(context.Background(), a.Deps); err != nil {
		t.Fatal(err)
	}
	s := &school{URL: url, A: a}
	e := a.Env
	s.Admin = e.As(perm.Admin)
	s.TeacherA = e.As(perm.WaliKelas)
	s.TeacherB = e.As(perm.WaliKelas)
	dept := s.id(`INSERT INTO departments (code, name) VALUES ('IPA', 'Ilmu Pengetahuan Alam') RETURNING id`)
	s.ClassA = s.id(`INSERT INTO classes (name, grade, department_id, homeroom_teacher_id) VALUES ('XI IPA 1', 11, $1, $2) RETURNING id`, dept, s.TeacherA.UserID)
	s.ClassB = s.id(`INSERT INTO classes (name, grade, department_id, homeroom_teacher_id) VALUES ('XI IPA 2', 11, $1, $2) RETURNING id`, dept, s.TeacherB.UserID)
	s.StudentA = s.id(`INSERT INTO students (source_id, full_name, nisn, nis, class_id) VALUES (9001, 'Budi Santoso', '0051234567', '2401', $1) RETURNING id`, s.ClassA)
	s.StudentB = s.id(`INSERT INTO students (source_id, full_name, nisn, nis, class_id) VALUES (9002, 'Citra Lestari', '0057654321', '2402', $1) RETURNING id`, s.ClassB)
	s.TypeID = s.id(`INSERT INTO violation_types (name, slug, points, category_id)
		VALUES ('Terlambat masuk kelas', 'terlambat-masuk-kelas', 5, (SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`)
	s.AlphaID = s.id(`SELECT id FROM violation_types WHERE slug = 'alpha'`)
	s.LateID = s.id(`SELECT id FROM violation_types WHERE slug = 'terlambat'`)
	return s
}

func (s *school) id(q string, args ...any) int64 {
	s.A.Env.T.Helper()
	var id int64
	if err := s.A.db.GetContext(context.Background(), &id, q, args...); err != nil {
		s.A.Env.T.Fatalf("%s: %v", q, err)
	}
	return id
}

// record records one violation of student through c and returns its id.
func record(t testing.TB, c *apitest.Client, student, typeID int64) int64 {
	t.Helper()
	var out wire.CreateViolationsResponse
	c.Do("POST", "/api/v1/violations", map[string]any{"student_id": student, "type_ids": []int64{typeID}, "location": "Kantin"}).
		Want(http.StatusCreated).JSON(&out)
	return out.Violations[0].ID
}

// dial opens the WebSocket of r with a bearer token; query is added to
// the URL.
func dial(t testing.TB, r *replica, token, query string, header ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	u := "ws" + strings.TrimPrefix(r.ts.URL, "http") + "/api/v1/ws" + query
	c, res, err := websocket.DefaultDialer.Dial(u, h)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, res, err
}

// next reads messages until one of type typ arrives within d.
func next(t testing.TB, c *websocket.Conn, typ string, d time.Duration) wire.WSMessage {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		_ = c.SetReadDeadline(deadline)
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

// quiet asserts no notification or summary arrives within d.
func quiet(t testing.TB, c *websocket.Conn, d time.Duration) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	for {
		_, b, err := c.ReadMessage()
		if err != nil {
			return
		}
		var m wire.WSMessage
		_ = json.Unmarshal(b, &m)
		if m.Type != wire.WSUnread {
			t.Fatalf("unexpected message %s", b)
		}
	}
}

func itoa(n int64) string { return fmt.Sprint(n) }
