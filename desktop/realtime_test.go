package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

var fastBackoff = Backoff{Min: 20 * time.Millisecond, Max: 80 * time.Millisecond, Unavailable: time.Hour}

func startRealtime(t *testing.T, serverURL string, sess *Session) (*Realtime, *fakePlatform) {
	t.Helper()
	settings, _, _ := newState(t, serverURL)
	fp := &fakePlatform{}
	rt := &Realtime{Settings: settings, Session: sess, Platform: fp, Log: quietLog, Backoff: fastBackoff}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { rt.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return rt, fp
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestRealtime(t *testing.T) {
	t.Run("OK_NotificationBecomesOnePopup", func(t *testing.T) {
		var auth atomic.Value
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth.Store(r.Header.Get("Authorization"))
			c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			_ = c.WriteMessage(websocket.TextMessage, []byte(`{"type":"notification","title":"SP 1","body":"Budi mencapai 50 poin","url":"/surat/7"}`))
			_, _, _ = c.ReadMessage() // hold the connection open
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("tok-ws")
		rt, fp := startRealtime(t, srv.URL, sess)

		waitFor(t, "a popup", func() bool { return len(fp.notifications()) > 0 })
		time.Sleep(50 * time.Millisecond) // a second popup would show up by now
		got := fp.notifications()
		if len(got) != 1 || got[0].Title != "SP 1" || got[0].URL != "/surat/7" {
			t.Fatalf("popups %+v", got)
		}
		if n := fp.eventCount(EventNotification); n != 1 {
			t.Fatalf("page events %d", n)
		}
		if a := auth.Load(); a != "Bearer tok-ws" {
			t.Fatalf("handshake Authorization %q", a)
		}
		if st := rt.Status(); st.State != RealtimeConnected {
			t.Fatalf("status %+v", st)
		}
	})

	t.Run("OK_ReconnectsWithBackoff", func(t *testing.T) {
		var mu sync.Mutex
		var at []time.Time
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			at = append(at, time.Now())
			n := len(at)
			mu.Unlock()
			if n <= 4 {
				http.Error(w, "down", http.StatusBadGateway)
				return
			}
			c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			_, _, _ = c.ReadMessage()
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("tok")
		rt, _ := startRealtime(t, srv.URL, sess)
		waitFor(t, "a connection after failures", func() bool { return rt.Status().State == RealtimeConnected })
		mu.Lock()
		defer mu.Unlock()
		if len(at) != 5 {
			t.Fatalf("%d attempts, want 5", len(at))
		}
		// Waits grow: 20ms, 40ms, 80ms, 80ms (each jittered to at least half).
		for i, min := range []time.Duration{10, 20, 40, 40} {
			if gap := at[i+1].Sub(at[i]); gap < min*time.Millisecond {
				t.Errorf("wait %d = %v, want ≥ %v", i, gap, min*time.Millisecond)
			}
		}
	})

	t.Run("OK_404IsQuietAndRare", func(t *testing.T) {
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			http.NotFound(w, r)
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("tok")
		rt, fp := startRealtime(t, srv.URL, sess)
		waitFor(t, "unavailable", func() bool { return rt.Status().State == RealtimeUnavailable })
		time.Sleep(200 * time.Millisecond)
		if n := hits.Load(); n != 1 {
			t.Fatalf("%d attempts against a 404, want 1 (the next in an hour)", n)
		}
		if len(fp.notifications()) != 0 || sess.Token() != "tok" {
			t.Fatal("a 404 must change nothing")
		}
	})

	t.Run("OK_WaitsForSignInThenConnects", func(t *testing.T) {
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			http.NotFound(w, r)
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		rt, _ := startRealtime(t, srv.URL, sess)
		waitFor(t, "signed out", func() bool { return rt.Status().State == RealtimeSignedOut })
		time.Sleep(50 * time.Millisecond)
		if hits.Load() != 0 {
			t.Fatal("dialled without a token")
		}
		_ = sess.SignIn("tok")
		waitFor(t, "a dial after sign-in", func() bool { return hits.Load() == 1 })
	})

	t.Run("OK_401SignsOut", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"code":"unauthorized"}}`, http.StatusUnauthorized)
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("tok")
		rt, _ := startRealtime(t, srv.URL, sess)
		waitFor(t, "signed out", func() bool { return sess.Token() == "" && rt.Status().State == RealtimeSignedOut })
	})
}

func TestRealtimeProtocol(t *testing.T) {
	t.Run("OK_CatchesUpAfterLastSeenID", func(t *testing.T) {
		// The server sends one notification per connection, then drops it
		// (a restart); each new connection must ask for what came after.
		var mu sync.Mutex
		var queries []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			queries = append(queries, r.URL.RawQuery)
			n := len(queries)
			mu.Unlock()
			c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			if n <= 2 {
				msg := fmt.Sprintf(`{"type":"notification","id":"%d","kind":"violation","title":"Pelanggaran baru","body":"Budi","url":"/violations/%d"}`, 40+n, n)
				_ = c.WriteMessage(websocket.TextMessage, []byte(msg))
				time.Sleep(20 * time.Millisecond)
				return // dropped
			}
			_, _, _ = c.ReadMessage()
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("tok")
		rt, fp := startRealtime(t, srv.URL, sess)
		waitFor(t, "a third connection", func() bool { mu.Lock(); defer mu.Unlock(); return len(queries) >= 3 })
		mu.Lock()
		got := append([]string(nil), queries[:3]...)
		mu.Unlock()
		lang := string(rt.Settings.Lang())
		want := []string{"lang=" + lang, "after_id=41&lang=" + lang, "after_id=42&lang=" + lang}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("connection %d asked %q, want %q", i+1, got[i], want[i])
			}
		}
		if n := len(fp.notifications()); n != 2 {
			t.Fatalf("%d popups, want 2", n)
		}
		if rt.LastID() != "42" {
			t.Fatalf("last id %q", rt.LastID())
		}
	})

	t.Run("OK_SummaryIsOnePopupUnreadOnlyThePage", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			for _, m := range []string{
				`{"type":"summary","count":48,"title":"Jurnal 2026-11-03","body":"48 alpha, 12 terlambat","url":"/violations?from=2026-11-03&to=2026-11-03&source=attendance","last_id":"900"}`,
				`{"type":"unread","count":48}`,
				`{"type":"notification","id":"900","title":"again","body":"a repeat","url":"/violations/1"}`,
			} {
				_ = c.WriteMessage(websocket.TextMessage, []byte(m))
			}
			_, _, _ = c.ReadMessage()
		}))
		defer srv.Close()
		_, sess, _ := newState(t, "")
		_ = sess.SignIn("tok")
		rt, fp := startRealtime(t, srv.URL, sess)
		waitFor(t, "the unread event", func() bool { return fp.eventCount("tatib:unread") == 1 })
		time.Sleep(50 * time.Millisecond)
		got := fp.notifications()
		if len(got) != 1 || got[0].Title != "Jurnal 2026-11-03" || got[0].URL != "/violations?from=2026-11-03&to=2026-11-03&source=attendance" {
			t.Fatalf("popups %+v, want the summary only", got)
		}
		if n := fp.eventCount("tatib:summary"); n != 1 {
			t.Fatalf("summary events %d", n)
		}
		if n := fp.eventCount(EventNotification); n != 0 {
			t.Fatalf("a repeated id reached the page (%d)", n)
		}
		if rt.LastID() != "900" {
			t.Fatalf("last id %q", rt.LastID())
		}
	})

	t.Run("OK_AnotherSessionStartsAfresh", func(t *testing.T) {
		rt := &Realtime{}
		rt.forUser("a")
		rt.seen("77")
		if got := rt.forUser("a"); got != "77" {
			t.Fatalf("same session: %q", got)
		}
		if got := rt.forUser("b"); got != "" {
			t.Fatalf("another session catches up after the first one's id %q", got)
		}
	})
}

func TestIDAfter(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"10", "9", true}, {"9", "10", false}, {"5", "", true}, {"", "5", false}, {"x", "1", false}, {"7", "7", false}} {
		if got := idAfter(c.a, c.b); got != c.want {
			t.Errorf("idAfter(%q, %q) = %t", c.a, c.b, got)
		}
	}
}

func TestWSURL(t *testing.T) {
	if got, _ := wsURL("http://10.0.0.5:8080", "12", "en"); got != "ws://10.0.0.5:8080/api/v1/ws?after_id=12&lang=en" {
		t.Errorf("with catch-up: %q", got)
	}
	for in, want := range map[string]string{
		"http://10.0.0.5:8080":        "ws://10.0.0.5:8080/api/v1/ws",
		"https://tatib.sch.id/tatib/": "wss://tatib.sch.id/tatib/api/v1/ws",
	} {
		if got, _ := wsURL(in, "", ""); got != want {
			t.Errorf("wsURL(%q) = %q, want %q", in, got, want)
		}
	}
}
