package notify

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
)

// client is one WebSocket of one signed-in session.
type client struct {
	hub   *Hub
	conn  *websocket.Conn
	user  int64
	token []byte // the session's token hash
	seq   uint64 // order of arrival in the hub
	lang  locale.Lang
	send  chan []byte

	mu      sync.Mutex
	ready   bool  // the catch-up has been queued; live rows go straight out
	pending []row // live rows that came during the catch-up
	// unreadAt is when the last unread count sent was read.
	unreadAt time.Time
	seen     []int64
	next     int
	gone     bool

	once   sync.Once
	closed chan struct{}
}

func newClient(h *Hub, conn *websocket.Conn, user int64, token []byte, lang locale.Lang) *client {
	return &client{hub: h, conn: conn, user: user, token: token, lang: lang, send: make(chan []byte, h.opt.Queue),
		closed: make(chan struct{})}
}

// fresh keeps the rows this socket has not been sent yet and remembers
// them; c.mu is held.
func (c *client) fresh(rows []row) []row {
	var out []row
	for _, r := range rows {
		if slices.Contains(c.seen, r.ID) {
			continue
		}
		if len(c.seen) < seenIDs {
			c.seen = append(c.seen, r.ID)
		} else {
			c.seen[c.next] = r.ID
			c.next = (c.next + 1) % seenIDs
		}
		out = append(out, r)
	}
	return out
}

// count is a user's unread count and when the statement that read it
// started: a count read earlier than one already sent is stale and is
// not sent.
type count struct {
	n  int
	at time.Time
}

// push queues new rows for this socket (a summary when more than
// SummaryAbove) and the unread count n. It never blocks: a full queue
// drops the socket.
func (c *client) push(enc *encoder, rows []row, n count) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone {
		return
	}
	if !c.ready {
		c.pending = append(c.pending, rows...)
		if len(c.pending) > 10*seenIDs {
			c.dropLocked()
		}
		return
	}
	fresh := c.fresh(rows)
	if len(fresh) == 0 {
		return
	}
	c.queueLocked(enc, fresh, len(fresh))
	c.unreadLocked(n)
}

// queueLocked queues fresh, or a summary of total when more than
// SummaryAbove; c.mu is held.
func (c *client) queueLocked(enc *encoder, fresh []row, total int) {
	if total > SummaryAbove {
		c.enqueueLocked(summary(c.lang, total, fresh[len(fresh)-1]))
		return
	}
	for _, r := range fresh {
		c.enqueueLocked(enc.message(r, c.lang))
	}
}

// unreadLocked queues the unread count unless a later one was sent.
func (c *client) unreadLocked(n count) {
	if n.n < 0 || !n.at.After(c.unreadAt) {
		return
	}
	c.unreadAt = n.at
	c.enqueueLocked(encode(api.WSMessage{Type: api.WSUnread, Count: n.n}))
}

// start queues the catch-up (total notifications after the client's last
// id, of which rows are the newest, oldest first), the live rows that came
// meanwhile and the unread count, then lets live rows straight through.
func (c *client) start(enc *encoder, rows []row, total int, n count) {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := c.fresh(append(rows, c.pending...))
	slices.SortFunc(all, func(a, b row) int { return cmp.Compare(a.ID, b.ID) })
	c.pending, c.ready = nil, true
	if len(all) > 0 {
		c.queueLocked(enc, all, len(all)+total-len(rows))
	}
	c.unreadLocked(n)
}

func (c *client) pushUnread(n count) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone || !c.ready {
		return // start sends the count it read
	}
	c.unreadLocked(n)
}

func (c *client) enqueueLocked(b []byte) {
	if c.gone {
		return
	}
	select {
	case c.send <- b:
	default:
		c.dropLocked()
	}
}

// dropLocked drops a socket that cannot keep up; c.mu is held.
func (c *client) dropLocked() {
	c.gone = true
	go c.end(0, "")
}

// end closes the socket once: with a close frame of code when code is not
// 0, then the connection.
func (c *client) end(code int, reason string) {
	c.once.Do(func() {
		c.mu.Lock()
		c.gone = true
		c.mu.Unlock()
		close(c.closed)
		if code != 0 {
			_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason),
				time.Now().Add(time.Second))
		}
		_ = c.conn.Close()
		c.hub.remove(c)
	})
}

// writeLoop sends the queue and the pings until the socket ends.
func (c *client) writeLoop() {
	ping := time.NewTicker(c.hub.opt.PingEvery)
	defer ping.Stop()
	for {
		select {
		case <-c.closed:
			return
		case b := <-c.send:
			_ = c.conn.SetWriteDeadline(time.Now().Add(c.hub.opt.WriteWait))
			if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
				c.end(0, "")
				return
			}
		case <-ping.C:
			if err := c.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.hub.opt.WriteWait)); err != nil {
				c.end(0, "")
				return
			}
		}
	}
}

// readLoop reads until the socket ends: the client sends nothing the
// server needs, but reading is what answers pings and sees pongs and the
// close.
func (c *client) readLoop() {
	c.conn.SetReadLimit(4 << 10)
	_ = c.conn.SetReadDeadline(time.Now().Add(c.hub.opt.PongWait))
	c.conn.SetPongHandler(func(string) error {
		return c.conn.SetReadDeadline(time.Now().Add(c.hub.opt.PongWait))
	})
	for {
		if _, _, err := c.conn.ReadMessage(); err != nil {
			c.end(0, "")
			return
		}
		_ = c.conn.SetReadDeadline(time.Now().Add(c.hub.opt.PongWait))
	}
}
