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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	// lastID is the last notification id seen: a reconnect asks for what
	// came after it (?after_id=), so nothing is lost across a server
	// restart or a network drop. It belongs to lastToken's user.
	lastID    string
	lastToken string
	shown     map[string]bool // ids already raised, against a catch-up repeating one
	popups    atomic.Int64    // OS popups raised (the self-test waits for a server one)
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

// Message is one real-time message from the server (shared/api WSMessage):
// type "notification" (ID, Kind, Title, Body, URL), "summary" (Count,
// Title, Body, URL, LastID: several at once, one popup) or "unread" (Count).
type Message struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	URL    string `json:"url"`
	ID     string `json:"id"`
	Kind   string `json:"kind,omitempty"`
	Count  int    `json:"count,omitempty"`
	LastID string `json:"last_id,omitempty"`
}

// Message types.
const (
	MessageNotification = "notification"
	MessageSummary      = "summary"
	MessageUnread       = "unread"
)

// LastID is the last notification id seen (what the next connection
// catches up after).
func (rt *Realtime) LastID() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.lastID
}

// seen notes id as seen and reports whether it was new. Ids are decimal;
// the highest is kept for the catch-up, each one against repeats.
func (rt *Realtime) seen(id string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.shown == nil {
		rt.shown = map[string]bool{}
	}
	if rt.shown[id] {
		return false
	}
	if len(rt.shown) >= 1000 {
		clear(rt.shown)
	}
	rt.shown[id] = true
	if idAfter(id, rt.lastID) {
		rt.lastID = id
	}
	return true
}

// forUser forgets what was seen when another session signs in.
func (rt *Realtime) forUser(token string) string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if token != rt.lastToken {
		rt.lastToken, rt.lastID, rt.shown = token, "", nil
	}
	return rt.lastID
}

// idAfter compares decimal ids as numbers; "" is before everything.
func idAfter(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	if errA != nil {
		return false
	}
	y, errB := strconv.ParseUint(b, 10, 64)
	return errB != nil || x > y
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
		conn, res, err := rt.dial(ctx, base, token, rt.forUser(token), string(rt.Settings.Lang()))
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

// wsURL turns the server URL into its WebSocket endpoint; afterID and lang
// (the texts' language) go into the query when set.
func wsURL(base, afterID, lang string) (string, error) {
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
	q := url.Values{}
	if afterID != "" {
		q.Set("after_id", afterID)
	}
	if lang != "" {
		q.Set("lang", lang)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func (rt *Realtime) dial(ctx context.Context, base, token, afterID, lang string) (*websocket.Conn, *http.Response, error) {
	u, err := wsURL(base, afterID, lang)
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
// "tatib:<type>"; a notification and a summary also as one OS popup each
// (a summary stands for many: one popup, not one per notification).
func (rt *Realtime) handle(data []byte) error {
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if m.Type == "" {
		m.Type = MessageNotification
	}
	var n Notification
	switch m.Type {
	case MessageNotification:
		if m.ID != "" && !rt.seen(m.ID) {
			return nil // a catch-up repeating one already raised
		}
		n = Notification{ID: m.ID, Title: m.Title, Body: m.Body, URL: m.URL}
		if n.ID == "" {
			n.ID = "tatib-" + time.Now().Format("20060102150405.000000000")
		}
		rt.Platform.Emit(EventNotification, n)
	case MessageSummary:
		if m.LastID != "" {
			rt.seen(m.LastID)
		}
		rt.Platform.Emit("tatib:"+m.Type, json.RawMessage(data))
		n = Notification{ID: "tatib-summary-" + m.LastID, Title: m.Title, Body: m.Body, URL: m.URL}
		if m.LastID == "" {
			n.ID = "tatib-summary-" + time.Now().Format("20060102150405.000000000")
		}
	default: // unread, and whatever a newer server sends: the page decides
		rt.Platform.Emit("tatib:"+m.Type, json.RawMessage(data))
		return nil
	}
	if err := rt.Platform.Notify(n); err != nil {
		return fmt.Errorf("notification: %w", err)
	}
	rt.popups.Add(1)
	return nil
}

// Popups is how many OS popups have been raised.
func (rt *Realtime) Popups() int64 { return rt.popups.Load() }

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
