package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/tatib/tatib/shared/api"
)

// fakeServer answers like Tatib's auth routes and records what it saw.
type fakeServer struct {
	mu   sync.Mutex
	seen []*http.Request
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.seen = append(f.seen, r.Clone(r.Context()))
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/v1/auth/login":
		http.SetCookie(w, &http.Cookie{Name: "tatib_session", Value: "tok-1"})
		_ = json.NewEncoder(w).Encode(api.LoginResponse{User: api.User{Username: "bk1"}, Token: "tok-1"})
	case "/api/v1/auth/me":
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"code":"unauthorized","message":"Silakan masuk terlebih dahulu."}}`)
			return
		}
		_ = json.NewEncoder(w).Encode(api.Me{User: api.User{Username: "bk1"}})
	case "/api/v1/auth/logout":
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func (f *fakeServer) last() *http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[len(f.seen)-1]
}

func newPages(t *testing.T, serverURL string) (*Pages, *Session, *memTokens) {
	settings, sess, mem := newState(t, serverURL)
	proxy := NewAPIProxy(settings, sess, quietLog)
	assets := fstest.MapFS{"index.html": {Data: []byte("<html><head></head><body>app</body></html>")}}
	return &Pages{Proxy: proxy, Settings: settings, Session: sess, Assets: assets, SPA: true}, sess, mem
}

func do(t *testing.T, h http.Handler, method, path, body string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, "wails://wails"+path, strings.NewReader(body))
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

var notFound = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })

func TestProxy(t *testing.T) {
	t.Run("OK_LoginCapturesTokenAndLaterRequestsCarryIt", func(t *testing.T) {
		fake := &fakeServer{}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		pages, sess, mem := newPages(t, srv.URL)
		h := pages.Middleware(notFound)

		w := do(t, h, "POST", "/api/v1/auth/login", `{"username":"bk1","password":"x"}`,
			"Origin", "wails://wails", "Cookie", "tatib_session=old", "Sec-Fetch-Site", "cross-site")
		if w.Code != 200 {
			t.Fatalf("login: %d %s", w.Code, w.Body)
		}
		var lr api.LoginResponse
		if err := json.Unmarshal(w.Body.Bytes(), &lr); err != nil || lr.Token != "tok-1" {
			t.Fatalf("the page must get the answer unchanged: %s", w.Body)
		}
		if w.Header().Get("Set-Cookie") != "" {
			t.Error("Set-Cookie reached the page")
		}
		if sess.Token() != "tok-1" || mem.tok != "tok-1" {
			t.Fatalf("token not kept: session %q store %q", sess.Token(), mem.tok)
		}
		got := fake.last()
		for _, k := range []string{"Origin", "Cookie", "Sec-Fetch-Site", "Authorization"} {
			if got.Header.Get(k) != "" {
				t.Errorf("login request carried %s: %q", k, got.Header.Get(k))
			}
		}
		if got.Host != strings.TrimPrefix(srv.URL, "http://") {
			t.Errorf("Host = %q, want the server's", got.Host)
		}

		w = do(t, h, "GET", "/api/v1/auth/me", "", "Cookie", "tatib_session=x")
		if w.Code != 200 {
			t.Fatalf("me: %d %s", w.Code, w.Body)
		}
		if a := fake.last().Header.Get("Authorization"); a != "Bearer tok-1" {
			t.Errorf("Authorization = %q", a)
		}
		if fake.last().Header.Get("Cookie") != "" {
			t.Error("cookie passed on")
		}
	})

	t.Run("OK_401SignsOut", func(t *testing.T) {
		srv := httptest.NewServer(&fakeServer{})
		defer srv.Close()
		pages, sess, mem := newPages(t, srv.URL)
		signedOut := 0
		pages.Proxy.OnSignedOut = func() { signedOut++ }
		_ = sess.SignIn("stale")
		w := do(t, pages.Middleware(notFound), "GET", "/api/v1/auth/me", "")
		if w.Code != 401 {
			t.Fatalf("me: %d", w.Code)
		}
		if sess.Token() != "" || mem.tok != "" || signedOut != 1 {
			t.Fatalf("401 must forget the token: session %q store %q signedOut %d", sess.Token(), mem.tok, signedOut)
		}
	})

	t.Run("OK_Late401KeepsNewerSession", func(t *testing.T) {
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("new")
		for _, used := range []string{"old", ""} {
			if err := sess.Expire(used); err != nil {
				t.Fatal(err)
			}
			if sess.Token() != "new" {
				t.Fatalf("a 401 for token %q signed out the new session", used)
			}
		}
	})

	t.Run("OK_LogoutForgetsToken", func(t *testing.T) {
		srv := httptest.NewServer(&fakeServer{})
		defer srv.Close()
		pages, sess, _ := newPages(t, srv.URL)
		_ = sess.SignIn("tok-1")
		if w := do(t, pages.Middleware(notFound), "POST", "/api/v1/auth/logout", ""); w.Code != 204 {
			t.Fatalf("logout: %d", w.Code)
		}
		if sess.Token() != "" {
			t.Fatal("sign out kept the token")
		}
	})

	t.Run("ErrUnreachable", func(t *testing.T) {
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		pages, sess, _ := newPages(t, "http://"+addr)
		_ = sess.SignIn("tok")
		w := do(t, pages.Middleware(notFound), "GET", "/api/v1/violations", "")
		if w.Code != http.StatusBadGateway {
			t.Fatalf("code %d", w.Code)
		}
		var body api.ErrorBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != "unavailable" ||
			!strings.Contains(body.Error.Message, "tidak dapat dihubungi") {
			t.Fatalf("body %s", w.Body)
		}
		if sess.Token() != "tok" {
			t.Fatal("an unreachable server must not sign the user out")
		}
	})

	t.Run("ErrNotConfigured", func(t *testing.T) {
		pages, _, _ := newPages(t, "")
		w := do(t, pages.Middleware(notFound), "GET", "/api/v1/auth/me", "")
		if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), `"unavailable"`) {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
}

func TestPages(t *testing.T) {
	t.Run("OK_FirstStartAsksForServer", func(t *testing.T) {
		pages, _, _ := newPages(t, "")
		w := do(t, pages.Middleware(notFound), "GET", "/", "")
		if w.Code != 200 || !strings.Contains(w.Body.String(), "Alamat server") {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})

	t.Run("OK_SetupSavesServerAndChangingItSignsOut", func(t *testing.T) {
		pages, sess, _ := newPages(t, "http://old.example")
		pages.Probe = func(_ context.Context, u string) error { return nil }
		_ = sess.SignIn("tok")
		w := do(t, pages.Middleware(notFound), "POST", "/desktop/setup", `{"url":" 10.0.0.5:8080/ "}`)
		if w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		if got := pages.Settings.ServerURL(); got != "http://10.0.0.5:8080" {
			t.Fatalf("server %q", got)
		}
		if sess.Token() != "" {
			t.Fatal("a new server must end the old session")
		}
	})

	t.Run("ErrSetupRejectsNonTatib", func(t *testing.T) {
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "<html>router</html>")
		}))
		defer other.Close()
		pages, _, _ := newPages(t, "")
		w := do(t, pages.Middleware(notFound), "POST", "/desktop/setup", `{"url":"`+other.URL+`"}`)
		if w.Code != 422 || !strings.Contains(w.Body.String(), "bukan server Tatib") {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		if pages.Settings.ServerURL() != "" {
			t.Fatal("saved a server that is not Tatib")
		}
	})

	t.Run("OK_SetupAcceptsTatib", func(t *testing.T) {
		srv := httptest.NewServer(&fakeServer{})
		defer srv.Close()
		pages, _, _ := newPages(t, "")
		if w := do(t, pages.Middleware(notFound), "POST", "/desktop/setup", `{"url":"`+srv.URL+`"}`); w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})

	t.Run("OK_SPAPathGetsIndexWithRuntime", func(t *testing.T) {
		pages, _, _ := newPages(t, "http://x.example")
		w := do(t, pages.Middleware(notFound), "GET", "/pelanggaran/12", "")
		if w.Code != 200 || !strings.Contains(w.Body.String(), "/wails/runtime.js") {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
}
