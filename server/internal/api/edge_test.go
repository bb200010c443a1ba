package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/httpx"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// TestQueryTextRefused: bytes PostgreSQL cannot store as text (invalid
// UTF-8, NUL, control characters) in a query parameter or the path are
// refused at the edge with a field error naming the parameter, never passed
// on to a query that fails with 500.
func TestQueryTextRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for _, path := range []string{"/api/v1/students", "/api/v1/users", "/api/v1/audit-log", "/api/v1/violation-types"} {
		for _, bad := range []string{"%ff", "%00", "%c0%af", "a%01b", "%ed%a0%80"} {
			for _, param := range []string{"q", "entity", "role"} {
				e := admin.Do("GET", path+"?"+param+"="+bad, nil).Want(422).Err()
				if e.Error.Code != "invalid" || e.Error.MessageCode != "request.bad_text" || e.Error.FieldCodes[param].Code != "request.field_bad_text" {
					t.Errorf("%s ?%s=%s: %+v", path, param, bad, e)
				}
			}
		}
	}
	t.Run("Path", func(t *testing.T) {
		for _, p := range []string{"/api/v1/roles/%ff/permissions", "/api/v1/users/%00"} {
			e := admin.Do("GET", p, nil, apitest.Undocumented()...).Want(422).Err()
			if e.Error.FieldCodes["path"].Code != "request.field_bad_text" {
				t.Errorf("%s: %+v", p, e)
			}
		}
	})
	t.Run("OK", func(t *testing.T) {
		admin.Do("GET", "/api/v1/students?q=%C3%A9%09x", nil).Want(200)
		admin.Do("GET", "/api/v1/users?q=Siti%20Nurhaliza", nil).Want(200)
	})
}

// TestJSONNulRefused: "\u0000" in a JSON string decodes to NUL, which a
// text column refuses; it is a 4xx naming the field, not a 500.
func TestJSONNulRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	body := []byte(`{"username":"budi","name":"Bu\u0000di","role":"staff","password":"rahasia123"}`)
	e := admin.Do("POST", "/api/v1/users", body).Want(422).Err()
	if e.Error.MessageCode != "request.json_nul" || e.Error.FieldCodes["name"].Code != "request.field_nul" {
		t.Fatalf("%+v", e)
	}
	cat := []byte(`{"name":"X","items":[{"a":"ok"},{"b":"\u0000"}]}`)
	e = admin.Do("POST", "/api/v1/violation-categories", cat).Want(422).Err()
	if e.Error.FieldCodes["items[1].b"].Code != "request.field_nul" {
		t.Fatalf("%+v", e)
	}
	// An escaped backslash before u0000 is the six characters, not NUL.
	ok := []byte(`{"username":"budi2","name":"Bu\\u0000di","role":"staff","password":"rahasia123"}`)
	admin.Do("POST", "/api/v1/users", ok).Want(201)
}

// TestPaging: every paged list refuses a page or page size it cannot
// serve (an offset that overflows, a word) with 422 naming the parameter.
func TestPaging(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for _, path := range []string{"/api/v1/students", "/api/v1/users", "/api/v1/audit-log", "/api/v1/students/syncs"} {
		for q, field := range map[string]string{
			"page=9223372036854775807": "page", "page=100001": "page", "page=abc": "page", "page=0": "page", "page=-1": "page",
			"per_page=101": "per_page", "per_page=x": "per_page", "per_page=0": "per_page",
		} {
			e := admin.Do("GET", path+"?"+q, nil).Want(422).Err()
			if e.Error.Code != "invalid" || e.Error.FieldCodes[field].Code == "" {
				t.Errorf("%s?%s: %+v", path, q, e)
			}
		}
		admin.Do("GET", path+"?page=100000&per_page=100", nil).Want(200)
		admin.Do("GET", path+"?page=&per_page=", nil).Want(200)
	}
}

// countingReader yields n bytes of body and counts what was read.
type countingReader struct {
	head []byte
	fill byte
	left int64
	read atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > c.left {
		n = c.left
	}
	for i := range p[:n] {
		p[i] = c.fill
	}
	if len(c.head) > 0 {
		k := copy(p[:n], c.head)
		c.head = c.head[k:]
	}
	c.left -= n
	c.read.Add(n)
	return int(n), nil
}

// send posts body without a Content-Length (chunked) and returns the status.
func send(t *testing.T, env *apitest.Env, path, contentType string, body io.Reader) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", env.Server.URL+path, io.NopCloser(body))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	req.Header.Set("Content-Type", contentType)
	res, err := env.Server.Client().Do(req)
	if err != nil {
		// The server may close the connection while the client still
		// writes; that too shows it did not read the body whole.
		return nil
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// TestBodyLimits: the size limit holds for every body whatever its type and
// whether or not it announces its length; a body of the wrong media type is
// refused before it is read.
func TestBodyLimits(t *testing.T) {
	t.Parallel()
	env := apitest.New(t) // limit 1 MiB
	admin := env.As(perm.Admin)
	const big = 256 << 20
	t.Run("ChunkedJSONOverLimit", func(t *testing.T) {
		r := &countingReader{head: []byte(`{"username":"`), fill: 'a', left: big}
		res := send(t, env, "/api/v1/auth/login", "application/json", r)
		if res != nil && res.StatusCode != 413 {
			t.Fatalf("status %d, want 413", res.StatusCode)
		}
		if n := r.read.Load(); n > 64<<20 {
			t.Fatalf("the server took %d bytes", n)
		}
	})
	t.Run("JSONWithTrailingBlanksOverLimit", func(t *testing.T) {
		body := append([]byte(`{"username":"a","password":"b"}`), bytes.Repeat([]byte(" "), 2<<20)...)
		res := send(t, env, "/api/v1/auth/login", "application/json", bytes.NewReader(body))
		if res == nil || res.StatusCode != 413 {
			t.Fatalf("%v, want 413", res)
		}
	})
	t.Run("ChunkedMultipartToJSONRoute", func(t *testing.T) {
		r := &countingReader{head: []byte("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n"), fill: 'x', left: big}
		start := time.Now()
		res := send(t, env, "/api/v1/auth/login", "multipart/form-data; boundary=b", r)
		if res != nil && res.StatusCode != 415 {
			t.Fatalf("status %d, want 415", res.StatusCode)
		}
		if n := r.read.Load(); n > 64<<20 {
			t.Fatalf("the server took %d bytes in %s", n, time.Since(start))
		}
	})
	t.Run("MultipartOverLimitAnnounced", func(t *testing.T) {
		req, _ := http.NewRequest("POST", env.Server.URL+"/api/v1/auth/login", strings.NewReader(strings.Repeat("x", 20<<20)))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		res, err := env.Server.Client().Do(req)
		if err == nil {
			res.Body.Close()
			if res.StatusCode != 413 {
				t.Fatalf("status %d, want 413", res.StatusCode)
			}
		}
	})
	t.Run("MediaTypes", func(t *testing.T) {
		// An empty user is accepted as JSON and refused as a form (422).
		for ct, want := range map[string]int{
			"application/json":                  422,
			"application/json; charset=utf-8":   422,
			"Application/JSON":                  422,
			"application/vnd.tatib+json":        422,
			"text/plain; a=+json":               415,
			"text/plain+json":                   415,
			"application/jsonx":                 415,
			"application/x-www-form-urlencoded": 415,
			"application/json; ;":               415,
		} {
			res := admin.Do("POST", "/api/v1/users", strings.NewReader(`{}`), "Content-Type", ct)
			if res.Status != want {
				t.Errorf("%q: %d, want %d: %s", ct, res.Status, want, res.Body)
			}
			if want == 415 && res.Err().Error.Code != "unsupported_media_type" {
				t.Errorf("%q: %s", ct, res.Body)
			}
		}
	})
}

// TestMethodNotAllowed: a method a route does not serve is 405 with the
// methods it does serve in Allow.
func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for _, m := range []string{"HEAD", "OPTIONS", "TRACE", "PUT"} {
		res := admin.Do(m, "/api/v1/users", nil, apitest.Undocumented()...).Want(405)
		if got := res.Header.Get("Allow"); got != "GET, POST" {
			t.Errorf("%s: Allow %q", m, got)
		}
		if m != "HEAD" && res.Err().Error.Code != "method_not_allowed" {
			t.Errorf("%s: %s", m, res.Body)
		}
	}
	res := admin.Do("DELETE", "/api/v1/users/1/reset-password", nil, apitest.Undocumented()...).Want(405)
	if got := res.Header.Get("Allow"); got != "POST" {
		t.Errorf("Allow %q", got)
	}
}

// TestCSPConnectSrc: the page may open connections to its own origin only.
func TestCSPConnectSrc(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, func(c *config.Config) { c.BaseURL = "https://tatib.sekolah.sch.id" })
	csp := env.Anonymous().Do("GET", "/healthz", nil).Header.Get("Content-Security-Policy")
	var connect string
	for _, d := range strings.Split(csp, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, "connect-src ") {
			connect = d
		}
	}
	if connect != "connect-src 'self' wss://tatib.sekolah.sch.id ws://tatib.sekolah.sch.id" {
		t.Fatalf("%q in %q", connect, csp)
	}
}

// TestDatabaseDown: while PostgreSQL cannot be reached, routes answer 503
// with the database message, not 500.
func TestDatabaseDown(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	db, err := sqlx.Open("postgres", "postgres://tatib@"+addr+"/tatib?sslmode=disable&connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := config.Config{BaseURL: "http://127.0.0.1", SessionIdle: time.Hour, SessionMaxAge: time.Hour, MaxBodyBytes: 1 << 20}
	a := auth.New(db, auth.Options{Idle: time.Hour, MaxAge: time.Hour}, log)
	ts := httptest.NewServer(api.New(app.Deps{DB: db, Config: cfg, Log: log, Auth: a}))
	t.Cleanup(ts.Close)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/v1/auth/login", `{"username":"admin","password":"rahasia123"}`},
		{"GET", "/api/v1/users", ""},
		{"GET", "/readyz", ""},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer abc")
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 503 || !strings.Contains(string(b), `"message_code":"server.database_unavailable"`) {
			t.Errorf("%s %s: %d %s", c.method, c.path, res.StatusCode, b)
		}
	}
}

// TestErrorCodesDocumented: the Error schema lists exactly the codes the
// server maps to a status of their own.
func TestErrorCodesDocumented(t *testing.T) {
	t.Parallel()
	raw, err := api.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				// Error is {"error": ErrorBody}; the codes are ErrorBody's.
				ErrorBody struct {
					Properties struct {
						Code struct {
							Enum []string `json:"enum"`
						} `json:"code"`
					} `json:"properties"`
				} `json:"ErrorBody"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	codes := []string{wire.CodeInvalid, wire.CodeBadRequest, wire.CodeUnauthorized, wire.CodeForbidden, wire.CodeNotFound,
		wire.CodeMethodNotAllowed, wire.CodeConflict, wire.CodeTooLarge, wire.CodeUnsupportedMediaType, wire.CodeRequestTimeout, wire.CodeRateLimited,
		wire.CodeInternal, wire.CodeUnavailable}
	enum := doc.Components.Schemas.ErrorBody.Properties.Code.Enum
	if fmt.Sprint(enum) != fmt.Sprint(codes) {
		t.Fatalf("documented %v, want %v", enum, codes)
	}
	seen := map[int]string{}
	for _, c := range codes {
		s := httpx.Status(c)
		if s == 500 && c != wire.CodeInternal {
			t.Errorf("%s maps to 500", c)
		}
		if other, ok := seen[s]; ok {
			t.Errorf("%s and %s both map to %d", c, other, s)
		}
		seen[s] = c
	}
}
