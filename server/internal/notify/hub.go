package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/shared/api"
)

// Limits of the live delivery; Options zero values take them.
const (
	DefaultPingEvery    = 25 * time.Second
	DefaultPongWait     = 60 * time.Second
	DefaultWriteWait    = 10 * time.Second
	DefaultQueue        = 64
	DefaultRecheckEvery = 30 * time.Second
	// SummaryAbove: a catch-up or one delivery of more notifications than
	// this for one socket is sent as one summary message.
	SummaryAbove = 5
	// replayWindow is how far back a reconnected listener re-reads.
	replayWindow = 2 * time.Minute
	// seenIDs is how many delivered ids each socket remembers to drop
	// duplicates (a replay after a listener reconnect, a catch-up racing a
	// live delivery).
	seenIDs = 256
)

// WebSocket close codes the server sends besides the standard ones.
const (
	// CloseSessionEnded: signed out, deactivated or the password was
	// reset; reconnecting needs a new sign-in.
	CloseSessionEnded = 4401
	// CloseTooMany: the session (or the user) opened more sockets than
	// allowed and this, its oldest, was closed; the page reconnects when it
	// is shown again, not by itself.
	CloseTooMany = 4429
)

// Sockets one session, and one user across their sessions, may hold on one
// replica: a person with many tabs and two devices stays well under, and a
// script opening thousands (about 37 KB each) cannot exhaust the process's
// files. Past either, the oldest socket of that session (or user) is
// closed with CloseTooMany.
const (
	MaxSocketsPerSession = 10
	MaxSocketsPerUser    = 20
)

// Options tune the hub; zero values take the defaults.
type Options struct {
	PingEvery, PongWait, WriteWait, RecheckEvery time.Duration
	Queue                                        int
	// Idle and MaxAge are the session limits (config), for the periodic
	// re-check of each socket's session.
	Idle, MaxAge time.Duration
}

// Hub holds this process's sockets, per user, and fans out to them what
// the process's listener hears on Channel and SessionsChannel.
type Hub struct {
	db       *sqlx.DB
	log      *slog.Logger
	listener *listen.Listener
	opt      Options

	mu      sync.Mutex
	users   map[int64]map[*client]struct{}
	seq     uint64 // order of arrival, for closing the oldest socket
	started bool
	closed  bool
	ready   chan struct{}
	cancel  context.CancelFunc
	done    chan struct{}
}

// NewHub returns a hub; it subscribes to l with Start or the first socket.
// A nil l: no live fan-out.
func NewHub(db *sqlx.DB, l *listen.Listener, log *slog.Logger, opt Options) *Hub {
	if opt.PingEvery == 0 {
		opt.PingEvery = DefaultPingEvery
	}
	if opt.PongWait == 0 {
		opt.PongWait = DefaultPongWait
	}
	if opt.WriteWait == 0 {
		opt.WriteWait = DefaultWriteWait
	}
	if opt.RecheckEvery == 0 {
		opt.RecheckEvery = DefaultRecheckEvery
	}
	if opt.Queue == 0 {
		opt.Queue = DefaultQueue
	}
	if opt.Idle == 0 {
		opt.Idle = 8 * time.Hour
	}
	if opt.MaxAge == 0 {
		opt.MaxAge = 30 * 24 * time.Hour
	}
	return &Hub{db: db, listener: l, log: log, opt: opt, users: map[int64]map[*client]struct{}{}, ready: make(chan struct{})}
}

// Start subscribes to the listener (once) and returns a channel closed when
// it listens. Without a listener there is no live fan-out: sockets still
// get their catch-up and unread count.
func (h *Hub) Start() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started || h.closed {
		return h.ready
	}
	h.started = true
	if h.listener == nil {
		h.log.Warn("notifications: no listener, live delivery is off")
		close(h.ready)
		return h.ready
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan struct{})
	go h.run(ctx)
	return h.ready
}

// Close ends the subscription and closes every socket as going away (the
// clients reconnect, to another replica if there is one).
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	cancel, done := h.cancel, h.done
	var all []*client
	for _, cs := range h.users {
		for c := range cs {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	for _, c := range all {
		c.end(websocket.CloseGoingAway, "server stopping")
	}
}

// Sockets counts the open sockets (for tests and the benchmark).
func (h *Hub) Sockets() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, cs := range h.users {
		n += len(cs)
	}
	return n
}

func (h *Hub) add(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	cs := h.users[c.user]
	if cs == nil {
		cs = map[*client]struct{}{}
		h.users[c.user] = cs
	}
	h.seq++
	c.seq = h.seq
	cs[c] = struct{}{}
	// At most one socket is over a limit after an add: close the oldest.
	if old := oldestOver(cs, c); old != nil {
		delete(cs, old)
		go old.end(CloseTooMany, "too many connections")
	}
	return true
}

// oldestOver returns the oldest socket to close when the user's sockets cs
// (c just added) pass a limit: of c's session first, else of the user.
func oldestOver(cs map[*client]struct{}, c *client) *client {
	var oldest, oldestSession *client
	session := 0
	for o := range cs {
		if oldest == nil || o.seq < oldest.seq {
			oldest = o
		}
		if bytes.Equal(o.token, c.token) {
			session++
			if oldestSession == nil || o.seq < oldestSession.seq {
				oldestSession = o
			}
		}
	}
	switch {
	case session > MaxSocketsPerSession:
		return oldestSession
	case len(cs) > MaxSocketsPerUser:
		return oldest
	}
	return nil
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if cs := h.users[c.user]; cs != nil {
		delete(cs, c)
		if len(cs) == 0 {
			delete(h.users, c.user)
		}
	}
}

// clientsOf returns the sockets of users (nil: everyone), by user.
func (h *Hub) clientsOf(users []int64) map[int64][]*client {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[int64][]*client{}
	add := func(u int64, cs map[*client]struct{}) {
		for c := range cs {
			out[u] = append(out[u], c)
		}
	}
	if users == nil {
		for u, cs := range h.users {
			add(u, cs)
		}
		return out
	}
	for _, u := range users {
		add(u, h.users[u])
	}
	return out
}

func (h *Hub) liveUsers() []int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]int64, 0, len(h.users))
	for u := range h.users {
		out = append(out, u)
	}
	return out
}

// run follows Channel and SessionsChannel on the process's listener until
// ctx ends.
func (h *Hub) run(ctx context.Context) {
	defer close(h.done)
	sub := h.listener.Subscribe(512, Channel, SessionsChannel)
	defer sub.Close()
	select {
	case <-h.listener.Ready():
	case <-ctx.Done():
		close(h.ready)
		return
	}
	close(h.ready)

	recheck := time.NewTicker(h.opt.RecheckEvery)
	defer recheck.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-sub.C():
			batch := []listen.Event{ev}
		drain:
			for len(batch) < 500 {
				select {
				case m := <-sub.C():
					batch = append(batch, m)
				default:
					break drain
				}
			}
			h.handle(ctx, batch)
		case <-recheck.C:
			h.recheckSessions(ctx, nil)
		}
	}
}

// handle processes a batch of announcements: new notification ranges, read
// marks, ended sessions; after a reconnect of the listener the last
// replayWindow is re-read (duplicates are dropped per socket).
func (h *Hub) handle(ctx context.Context, batch []listen.Event) {
	var los, his, readers, sessionUsers []int64
	replay, allSessions := false, false
	for _, n := range batch {
		switch n.Kind {
		case listen.Reconnected:
			replay = true
			continue
		case listen.Lost:
			continue
		}
		switch n.Channel {
		case SessionsChannel:
			if n.Payload == "*" {
				allSessions = true
				continue
			}
			for _, s := range strings.Split(n.Payload, ",") {
				if id, err := strconv.ParseInt(s, 10, 64); err == nil {
					sessionUsers = append(sessionUsers, id)
				}
			}
		case Channel:
			if u, ok := strings.CutPrefix(n.Payload, "r"); ok {
				if id, err := strconv.ParseInt(u, 10, 64); err == nil {
					readers = append(readers, id)
				}
				continue
			}
			lo, hi, ok := strings.Cut(n.Payload, "-")
			a, err1 := strconv.ParseInt(lo, 10, 64)
			b, err2 := strconv.ParseInt(hi, 10, 64)
			if ok && err1 == nil && err2 == nil {
				los, his = append(los, a), append(his, b)
			}
		}
	}
	if allSessions {
		h.recheckSessions(ctx, nil)
	} else if len(sessionUsers) > 0 {
		h.recheckSessions(ctx, sessionUsers)
	}
	live := h.liveUsers()
	if len(live) == 0 {
		return
	}
	if replay {
		rows, err := since(ctx, h.db, live, 0, replayWindow)
		if err != nil {
			h.log.Warn("notifications: replay", "err", err)
		} else {
			h.deliver(ctx, rows)
		}
	}
	if len(los) > 0 {
		rows, err := h.inRanges(ctx, live, los, his)
		if err != nil {
			h.log.Warn("notifications: read new", "err", err)
		} else {
			h.deliver(ctx, rows)
		}
	}
	if len(readers) > 0 {
		h.sendUnread(ctx, readers)
	}
}

func (h *Hub) inRanges(ctx context.Context, users, los, his []int64) ([]row, error) {
	rows := []row{}
	const q = `SELECT DISTINCT ` + rowColumns + ` FROM notifications n
		JOIN unnest($2::bigint[], $3::bigint[]) AS r(lo, hi) ON n.id BETWEEN r.lo AND r.hi
		WHERE n.user_id = ANY($1::bigint[]) ORDER BY id`
	if err := h.db.SelectContext(ctx, &rows, q, pq.Array(users), pq.Array(los), pq.Array(his)); err != nil {
		return nil, fmt.Errorf("notify: ranges: %w", err)
	}
	return rows, nil
}

// unread counts each user's unread notifications.
func (h *Hub) unread(ctx context.Context, users []int64) (map[int64]count, error) {
	at := time.Now()
	var rows []struct {
		User  int64 `db:"user_id"`
		Count int   `db:"count"`
	}
	const q = `SELECT u.id AS user_id, (SELECT count(*) FROM notifications n WHERE n.user_id = u.id AND n.read_at IS NULL) AS count
		FROM unnest($1::bigint[]) AS u(id)`
	if err := h.db.SelectContext(ctx, &rows, q, pq.Array(users)); err != nil {
		return nil, fmt.Errorf("notify: unread: %w", err)
	}
	out := make(map[int64]count, len(rows))
	for _, r := range rows {
		out[r.User] = count{r.Count, at}
	}
	return out, nil
}

// deliver hands rows to their users' sockets here, with each user's new
// unread count. Each message is encoded once per language.
func (h *Hub) deliver(ctx context.Context, rows []row) {
	if len(rows) == 0 {
		return
	}
	byUser := map[int64][]row{}
	var users []int64
	for _, r := range rows {
		if _, ok := byUser[r.UserID]; !ok {
			users = append(users, r.UserID)
		}
		byUser[r.UserID] = append(byUser[r.UserID], r)
	}
	counts, err := h.unread(ctx, users)
	if err != nil {
		h.log.Warn("notifications: unread", "err", err)
		counts = nil
	}
	enc := newEncoder()
	for u, cs := range h.clientsOf(users) {
		n, ok := counts[u]
		if !ok {
			n = count{n: -1}
		}
		for _, c := range cs {
			c.push(enc, byUser[u], n)
		}
	}
}

func (h *Hub) sendUnread(ctx context.Context, users []int64) {
	clients := h.clientsOf(users)
	if len(clients) == 0 {
		return
	}
	counts, err := h.unread(ctx, users)
	if err != nil {
		h.log.Warn("notifications: unread", "err", err)
		return
	}
	for u, cs := range clients {
		for _, c := range cs {
			c.pushUnread(counts[u])
		}
	}
}

// recheckSessions closes the sockets whose session has ended, expired or
// whose user is no longer active: users' sockets, or every socket (nil).
func (h *Hub) recheckSessions(ctx context.Context, users []int64) {
	clients := h.clientsOf(users)
	var hashes [][]byte
	for _, cs := range clients {
		for _, c := range cs {
			hashes = append(hashes, c.token)
		}
	}
	if len(hashes) == 0 {
		return
	}
	var valid [][]byte
	now := time.Now()
	const q = `SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = ANY($1::bytea[]) AND u.active AND s.last_seen_at > $2 AND s.created_at > $3`
	rows, err := h.db.QueryContext(ctx, q, pq.ByteaArray(hashes), now.Add(-h.opt.Idle), now.Add(-h.opt.MaxAge))
	if err != nil {
		h.log.Warn("notifications: session check", "err", err)
		return
	}
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err == nil {
			valid = append(valid, b)
		}
	}
	rows.Close()
	if rows.Err() != nil {
		return
	}
	for _, cs := range clients {
		for _, c := range cs {
			ok := false
			for _, v := range valid {
				if bytes.Equal(v, c.token) {
					ok = true
					break
				}
			}
			if !ok {
				c.end(CloseSessionEnded, "session ended")
			}
		}
	}
}

// encoder caches each notification's message per language within one
// delivery.
type encoder struct {
	mu    sync.Mutex
	cache map[encKey][]byte
}

type encKey struct {
	id   int64
	lang locale.Lang
}

func newEncoder() *encoder { return &encoder{cache: map[encKey][]byte{}} }

func (e *encoder) message(r row, lang locale.Lang) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	k := encKey{r.ID, lang}
	if b, ok := e.cache[k]; ok {
		return b
	}
	b := encode(r.message(lang))
	e.cache[k] = b
	return b
}

func encode(m api.WSMessage) []byte {
	b, _ := json.Marshal(m)
	return b
}

// summary is the one message for more than SummaryAbove notifications:
// their number, the newest one's title as the body, the list as the link.
func summary(lang locale.Lang, count int, newest row) []byte {
	title, _ := newest.render(lang)
	return encode(api.WSMessage{Type: api.WSSummary, Count: count,
		Title: locale.Render(lang, "notify.summary.title", map[string]any{"count": count}),
		Body:  locale.Render(lang, "notify.summary.body", map[string]any{"latest": title}),
		URL:   "/notifications", LastID: strconv.FormatInt(newest.ID, 10)})
}
