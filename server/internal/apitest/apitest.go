// Package apitest runs the whole API on a fresh database for handler tests:
// users of any role, signed in, calling routes through httptest.
//
// Use it from external test packages (package foo_test), since it imports
// every feature through the api package.
package apitest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/crypto/bcrypt"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/shared/perm"
)

func init() {
	// bcrypt at its default cost is slow under the race detector; the cost
	// is no part of what these tests check.
	auth.PasswordCost = bcrypt.MinCost
}

// Env is a running API on its own database.
type Env struct {
	T      testing.TB
	DB     *sqlx.DB
	Server *httptest.Server
	API    *api.Server
	Deps   app.Deps
	seq    atomic.Int64
}

// New starts the API on a fresh migrated database. opts may change the
// configuration before the server is built.
func New(t testing.TB, opts ...func(*config.Config)) *Env {
	t.Helper()
	return NewOn(t, pgtest.New(t), opts...)
}

// NewOn is New on a database the caller opened (a migrated one, e.g.
// pgcount's, which counts the round trips).
func NewOn(t testing.TB, db *sqlx.DB, opts ...func(*config.Config)) *Env {
	t.Helper()
	cfg := config.Config{Addr: "127.0.0.1:0", BaseURL: "http://127.0.0.1", SessionIdle: time.Hour, SessionMaxAge: 24 * time.Hour,
		MaxBodyBytes: 1 << 20, LogFormat: "text", DataDir: t.TempDir()}
	for _, o := range opts {
		o(&cfg)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	a := auth.New(db, auth.Options{Idle: cfg.SessionIdle, MaxAge: cfg.SessionMaxAge}, log)
	d := app.Deps{DB: db, Config: cfg, Log: log, Auth: a}
	srv := api.New(d)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	// Benchmarks measure the server, not the check.
	if _, bench := t.(*testing.B); !bench {
		ts.Client().Transport = checkedTransport{base: ts.Client().Transport, t: t, seen: &sync.Map{}}
	}
	return &Env{T: t, DB: db, Server: ts, API: srv, Deps: d}
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// CreateUser stores a user of role with password "rahasia123" and returns
// its id and username.
func (e *Env) CreateUser(role perm.Role) (int64, string) {
	e.T.Helper()
	n := e.seq.Add(1)
	username := fmt.Sprintf("%s%d", strings.ReplaceAll(string(role), "_", ""), n)
	hash, err := auth.HashPassword("rahasia123")
	if err != nil {
		e.T.Fatal(err)
	}
	var id int64
	err = e.DB.GetContext(context.Background(), &id,
		`INSERT INTO users (username, name, role, password_hash) VALUES ($1, $2, $3, $4) RETURNING id`,
		username, "Pengguna "+username, role, hash)
	if err != nil {
		e.T.Fatal(err)
	}
	return id, username
}

// Client is a signed-in caller using a bearer token.
type Client struct {
	env    *Env
	Token  string
	UserID int64
	Role   perm.Role
}

// As creates a user of role and signs them in.
func (e *Env) As(role perm.Role) *Client {
	e.T.Helper()
	id, username := e.CreateUser(role)
	c := e.Login(username, "rahasia123")
	c.UserID, c.Role = id, role
	return c
}

// Login signs in with the given credentials and fails the test otherwise.
func (e *Env) Login(username, password string) *Client {
	e.T.Helper()
	anon := &Client{env: e}
	var out struct {
		Token string `json:"token"`
	}
	res := anon.Do("POST", "/api/v1/auth/login", map[string]string{"username": username, "password": password})
	res.Want(http.StatusOK).JSON(&out)
	return &Client{env: e, Token: out.Token}
}

// Anonymous returns a caller with no credentials.
func (e *Env) Anonymous() *Client { return &Client{env: e} }

// Response is a finished request.
type Response struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   []byte
	method string
	path   string
}

// Do sends a request; body is JSON-encoded unless it is an io.Reader or
// []byte.
func (c *Client) Do(method, path string, body any, headers ...string) *Response {
	c.env.T.Helper()
	var rd io.Reader
	ct := ""
	switch b := body.(type) {
	case nil:
	case io.Reader:
		rd = b
	case []byte:
		rd = bytes.NewReader(b)
		ct = "application/json"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			c.env.T.Fatal(err)
		}
		rd = bytes.NewReader(buf)
		ct = "application/json"
	}
	req, err := http.NewRequest(method, c.env.Server.URL+path, rd)
	if err != nil {
		c.env.T.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := c.env.Server.Client().Do(req)
	if err != nil {
		c.env.T.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return &Response{t: c.env.T, Status: res.StatusCode, Header: res.Header, Body: b, method: method, path: path}
}

// Want fails the test unless the status is one of want.
func (r *Response) Want(want ...int) *Response {
	r.t.Helper()
	for _, w := range want {
		if r.Status == w {
			return r
		}
	}
	r.t.Fatalf("%s %s: status %d, want %v; body: %s", r.method, r.path, r.Status, want, r.Body)
	return r
}

// JSON decodes the body into v.
func (r *Response) JSON(v any) *Response {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("%s %s: decode %s: %v", r.method, r.path, r.Body, err)
	}
	return r
}

// ErrorBody is an API error answer.
type ErrorBody struct {
	Error struct {
		Code        string            `json:"code"`
		Message     string            `json:"message"`
		MessageCode string            `json:"message_code"`
		Params      map[string]any    `json:"params"`
		Fields      map[string]string `json:"fields"`
		FieldCodes  map[string]struct {
			Code   string         `json:"code"`
			Params map[string]any `json:"params"`
		} `json:"field_codes"`
	} `json:"error"`
}

// Err decodes the error body.
func (r *Response) Err() ErrorBody {
	r.t.Helper()
	var e ErrorBody
	r.JSON(&e)
	return e
}

// Session opens a session for userID directly in the database (no bcrypt,
// no throttle) and returns a client using it; for tests that need many.
func (e *Env) Session(userID int64, role perm.Role) *Client {
	e.T.Helper()
	token := fmt.Sprintf("test-%d-%d-%d", userID, e.seq.Add(1), time.Now().UnixNano())
	sum := sha256.Sum256([]byte(token))
	if _, err := e.DB.Exec(`INSERT INTO sessions (token_hash, user_id) VALUES ($1, $2)`, sum[:], userID); err != nil {
		e.T.Fatal(err)
	}
	return &Client{env: e, Token: token, UserID: userID, Role: role}
}
