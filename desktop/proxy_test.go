package main

import (
	"context"
	"encoding/json"
	"html"
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
		body := errorBody(t, w)
		if body.Code != "unavailable" || body.MessageCode != "desktop.server_unreachable" ||
			body.Params["url"] != "http://"+addr || !strings.Contains(body.Message, addr) {
			t.Fatalf("body %s", w.Body)
		}
		if sess.Token() != "tok" {
			t.Fatal("an unreachable server must not sign the user out")
		}
	})

	t.Run("ErrNotConfigured", func(t *testing.T) {
		pages, _, _ := newPages(t, "")
		w := do(t, pages.Middleware(notFound), "GET", "/api/v1/auth/me", "")
		if b := errorBody(t, w); w.Code != http.StatusServiceUnavailable || b.Code != "unavailable" ||
			b.MessageCode != "desktop.server_not_set" {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})

	// The proxy's own answers speak the language the page asked in.
	t.Run("OK_ErrorsInTheRequestLanguage", func(t *testing.T) {
		pages, _, _ := newPages(t, "")
		h := pages.Middleware(notFound)
		en := errorBody(t, do(t, h, "GET", "/api/v1/auth/me", "", "Accept-Language", "en"))
		id := errorBody(t, do(t, h, "GET", "/api/v1/auth/me", "", "Accept-Language", "id"))
		if en.Message != T(LangEN, "desktop.server_not_set") || id.Message != T(LangID, "desktop.server_not_set") {
			t.Fatalf("en %q id %q", en.Message, id.Message)
		}
	})

	t.Run("OK_AcceptLanguageReachesServerAndIsRemembered", func(t *testing.T) {
		fake := &fakeServer{}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		pages, _, _ := newPages(t, srv.URL)
		h := pages.Middleware(notFound)
		do(t, h, "GET", "/api/v1/auth/me", "", "Accept-Language", "en")
		if got := fake.last().Header.Get("Accept-Language"); got != "en" {
			t.Fatalf("server got Accept-Language %q, want en", got)
		}
		if got := pages.Settings.Lang(); got != LangEN {
			t.Fatalf("UI language %q, want en", got)
		}
		do(t, h, "GET", "/api/v1/auth/me", "", "Accept-Language", "id-ID,id;q=0.9")
		if got := fake.last().Header.Get("Accept-Language"); got != "id-ID,id;q=0.9" {
			t.Fatalf("server got Accept-Language %q: it must pass unchanged", got)
		}
		if got := pages.Settings.Lang(); got != LangID {
			t.Fatalf("UI language %q, want id", got)
		}
		do(t, h, "GET", "/api/v1/auth/me", "") // no header: keep what the UI said
		if got := pages.Settings.Lang(); got != LangID {
			t.Fatalf("UI language %q after a request without the header", got)
		}
	})
}

func errorBody(t *testing.T, w *httptest.ResponseRecorder) api.ErrorDetail {
	t.Helper()
	var body api.ErrorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("not an error body: %d %s", w.Code, w.Body)
	}
	return body.Error
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
		if b := errorBody(t, w); w.Code != 422 || b.MessageCode != "desktop.server_not_tatib" || b.Code != "invalid" {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		if pages.Settings.ServerURL() != "" {
			t.Fatal("saved a server that is not Tatib")
		}
	})

	t.Run("ErrSetupInTheRequestLanguage", func(t *testing.T) {
		pages, _, _ := newPages(t, "")
		h := pages.Middleware(notFound)
		w := do(t, h, "POST", "/desktop/setup", `{"url":"  "}`, "Accept-Language", "en")
		if b := errorBody(t, w); w.Code != 422 || b.MessageCode != "desktop.server_url_required" ||
			b.Message != "Enter the server address." {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		w = do(t, h, "POST", "/desktop/setup", `{"url":"ftp://x"}`, "Accept-Language", "id")
		if b := errorBody(t, w); w.Code != 422 || b.MessageCode != "desktop.server_url_invalid" ||
			!strings.HasPrefix(b.Message, "Alamat server tidak valid") {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})

	t.Run("OK_SetupPageLanguage", func(t *testing.T) {
		pages, _, _ := newPages(t, "")
		h := pages.Middleware(notFound)
		en, id := html.EscapeString(T(LangEN, "desktop.setup.intro")), html.EscapeString(T(LangID, "desktop.setup.intro"))
		page := func(path string, hdr ...string) string {
			t.Helper()
			w := do(t, h, "GET", path, "", hdr...)
			if w.Code != 200 {
				t.Fatalf("%s: %d", path, w.Code)
			}
			return w.Body.String()
		}
		// WebKitGTK sends the system locale for page loads.
		if b := page("/", "Accept-Language", "en-US,en;q=0.9"); !strings.Contains(b, en) ||
			!strings.Contains(b, `<html lang="en">`) || !strings.Contains(b, `href="/desktop/setup?lang=id"`) {
			t.Fatalf("English system: %s", b)
		}
		if b := page("/desktop/setup", "Accept-Language", "id-ID"); !strings.Contains(b, id) ||
			!strings.Contains(b, `href="/desktop/setup?lang=en"`) {
			t.Fatalf("Indonesian system: %s", b)
		}
		// The switch wins over the system locale.
		if b := page("/desktop/setup?lang=en", "Accept-Language", "id-ID"); !strings.Contains(b, en) {
			t.Fatalf("?lang=en: %s", b)
		}
		// Once the UI said its language, the page follows it (the menu
		// opens this page from a UI that may differ from the system).
		_ = pages.Settings.NoteLang(LangID)
		if b := page("/desktop/setup", "Accept-Language", "en-US"); !strings.Contains(b, id) {
			t.Fatalf("after the UI spoke Indonesian: %s", b)
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
