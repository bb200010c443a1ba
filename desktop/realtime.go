package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Realtime keeps a WebSocket open to the server's /api/v1/ws while someone
// is signed in, and hands each message to the page and to the OS as a
// notification popup. WebSockets cannot pass through the Wails asset server,
// so the connection lives here.
type Realtime struct {
	Settings *SettingsStore
	Session  *Session
	Platform Platform
	Log      *slog.Logger
	Backoff  Backoff
	Dialer   *websocket.Dialer

	mu     sync.Mutex
	status RealtimeStatus
}

// Backoff is the reconnect schedule: Min doubling up to Max after errors,
// Unavailable while the server has no real-time channel (404).
type Backoff struct {
	Min, Max, Unavailable time.Duration
}

// DefaultBackoff is used by the app.
var DefaultBackoff = Backoff{Min: time.Second, Max: time.Minute, Unavailable: 5 * time.Minute}

// Real-time states.
const (
	RealtimeSignedOut   = "signed_out"
	RealtimeConnecting  = "connecting"
	RealtimeConnected   = "connected"
	RealtimeUnavailable = "unavailable" // the server has no /api/v1/ws (404)
	RealtimeError       = "error"
)

// RealtimeStatus is the channel's state, for the page and the self-test.
type RealtimeStatus struct {
	State    string `json:"state"`
	Detail   string `json:"detail,omitempty"`
	Attempts int    `json:"attempts"`
}

// Message is one real-time message from the server.
type Message struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	ID    string `json:"id"`
}

// Status returns the current state.
func (rt *Realtime) Status() RealtimeStatus {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.status
}

func (rt *Realtime) setStatus(state, detail string, attempt bool) {
	rt.mu.Lock()
	rt.status.State, rt.status.Detail = state, detail
	if attempt {
		rt.status.Attempts++
	}
	st := rt.status
	rt.mu.Unlock()
	rt.Platform.Emit(EventRealtime, st)
}

// Run connects and reconnects until ctx ends.
func (rt *Realtime) Run(ctx context.Context) {
	delay := rt.Backoff.Min
	for ctx.Err() == nil {
		changed := rt.Session.Changed()
		token, base := rt.Session.Token(), rt.Settings.ServerURL()
		if token == "" || base == "" {
			rt.setStatus(RealtimeSignedOut, "", false)
			select {
			case <-ctx.Done():
			case <-changed:
			}
			delay = rt.Backoff.Min
			continue
		}
		rt.setStatus(RealtimeConnecting, "", true)
		conn, res, err := rt.dial(ctx, base, token)
		var wait time.Duration
		switch {
		case err == nil:
			rt.setStatus(RealtimeConnected, "", false)
			delay = rt.Backoff.Min
			err = rt.read(ctx, conn, changed)
			conn.Close()
			if ctx.Err() != nil {
				return
			}
			rt.setStatus(RealtimeError, errText(err), false)
			wait = jitter(delay)
		case res != nil && res.StatusCode == http.StatusNotFound:
			// The server has no real-time channel yet: stay quiet, ask rarely.
			rt.setStatus(RealtimeUnavailable, "404", false)
			wait = rt.Backoff.Unavailable
		case res != nil && res.StatusCode == http.StatusUnauthorized:
			_ = rt.Session.Expire(token)
			continue
		default:
			rt.setStatus(RealtimeError, errText(err), false)
			rt.Log.Debug("desktop: realtime", "err", err)
			wait = jitter(delay)
			delay = min(delay*2, rt.Backoff.Max)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-changed: // signed in again or out: try now
			delay = rt.Backoff.Min
		case <-t.C:
		}
		t.Stop()
	}
}

// wsURL turns the server URL into its WebSocket endpoint.
func wsURL(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/api/v1/ws"
	return u.String(), nil
}

func (rt *Realtime) dial(ctx context.Context, base, token string) (*websocket.Conn, *http.Response, error) {
	u, err := wsURL(base)
	if err != nil {
		return nil, nil, err
	}
	d := rt.Dialer
	if d == nil {
		d = &websocket.Dialer{HandshakeTimeout: 15 * time.Second, Proxy: http.ProxyFromEnvironment}
	}
	h := http.Header{"Authorization": {"Bearer " + token}, "User-Agent": {"Tatib-Desktop/" + version}}
	conn, res, err := d.DialContext(ctx, u, h)
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
	return conn, res, err
}

// read handles messages until the connection fails, ctx ends or the
// session changes (the connection belongs to the old token).
func (rt *Realtime) read(ctx context.Context, conn *websocket.Conn, changed <-chan struct{}) error {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
		case <-changed:
		case <-stop:
			return
		}
		conn.Close()
	}()
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			select {
			case <-changed:
				return errors.New("session changed")
			default:
			}
			return err
		}
		if err := rt.handle(data); err != nil {
			rt.Log.Warn("desktop: realtime message", "err", err)
		}
	}
}

// handle passes one message on: every message to the page as
// "tatib:<type>", and a notification also as an OS popup.
func (rt *Realtime) handle(data []byte) error {
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if m.Type == "" {
		m.Type = "notification"
	}
	if m.Type != "notification" {
		rt.Platform.Emit("tatib:"+m.Type, json.RawMessage(data))
		return nil
	}
	n := Notification{ID: m.ID, Title: m.Title, Body: m.Body, URL: m.URL}
	if n.ID == "" {
		n.ID = "tatib-" + time.Now().Format("20060102150405.000000000")
	}
	rt.Platform.Emit(EventNotification, n)
	if err := rt.Platform.Notify(n); err != nil {
		return fmt.Errorf("notification: %w", err)
	}
	return nil
}

func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
