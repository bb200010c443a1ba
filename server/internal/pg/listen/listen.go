// Package listen is the process's one LISTEN connection: features
// subscribe to PostgreSQL channels by name and get their payloads, and are
// told when the connection came back (announcements may have been missed
// meanwhile, so each resyncs what it keeps). It connects to the direct URL:
// LISTEN needs a session of its own, never a transaction pooler's.
package listen

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/lib/pq"
)

// Kind says what an Event is.
type Kind int

const (
	// Notification is a NOTIFY on a subscribed channel.
	Notification Kind = iota
	// Reconnected: the connection was lost and is back, LISTENing again;
	// whatever was announced in between is lost.
	Reconnected
	// Lost: the connection is down (or a reconnect attempt failed);
	// announcements are being missed until Reconnected.
	Lost
)

// Event is what a subscriber receives.
type Event struct {
	Kind    Kind
	Channel string
	Payload string
}

// Reconnect bounds of the connection: the first retry after this, doubling
// up to the second.
const (
	MinReconnect = 100 * time.Millisecond
	MaxReconnect = 10 * time.Second
	// pingEvery checks an idle connection, so a dead one is noticed.
	pingEvery = 90 * time.Second
)

// Listener owns the connection and dispatches to subscribers.
type Listener struct {
	url string
	log *slog.Logger

	mu       sync.RWMutex
	subs     map[string][]*Sub // by channel
	all      []*Sub
	pq       *pq.Listener // nil until Run
	listened map[string]bool
	ready    chan struct{}
	readyOK  sync.Once
	events   chan Kind // from pq's event callback to the dispatcher
}

// New returns a listener on url (the direct URL); it connects in Run. An
// empty url never connects: subscribers get nothing, and Ready is closed
// at once.
func New(url string, log *slog.Logger) *Listener {
	if log == nil {
		log = slog.Default()
	}
	l := &Listener{url: url, log: log, subs: map[string][]*Sub{}, listened: map[string]bool{},
		ready: make(chan struct{}), events: make(chan Kind, 16)}
	if url == "" {
		l.markReady()
	}
	return l
}

func (l *Listener) markReady() { l.readyOK.Do(func() { close(l.ready) }) }

// Ready is closed once the connection listens on every channel subscribed
// before Run started (or when Run ended, or there is no URL).
func (l *Listener) Ready() <-chan struct{} { return l.ready }

// Sub is one subscription: its events arrive on C in order. A subscriber
// must keep reading C until it closes its Sub: the dispatcher waits for a
// full C (nothing is dropped) and so delays the other subscribers.
type Sub struct {
	l        *Listener
	channels []string
	c        chan Event
	done     chan struct{}
	once     sync.Once
}

// C delivers the subscription's events.
func (s *Sub) C() <-chan Event { return s.c }

// Close ends the subscription (its channels stay LISTENed: another
// subscriber may share them, and a LISTEN costs nothing).
func (s *Sub) Close() {
	s.once.Do(func() {
		close(s.done)
		s.l.mu.Lock()
		defer s.l.mu.Unlock()
		for _, ch := range s.channels {
			s.l.subs[ch] = without(s.l.subs[ch], s)
		}
		s.l.all = without(s.l.all, s)
	})
}

func without(subs []*Sub, s *Sub) []*Sub {
	out := subs[:0:0]
	for _, o := range subs {
		if o != s {
			out = append(out, o)
		}
	}
	return out
}

// Subscribe follows channels; buf is C's buffer. Subscribed while Run is
// connected, it returns once the channels are LISTENed.
func (l *Listener) Subscribe(buf int, channels ...string) *Sub {
	s := &Sub{l: l, channels: channels, c: make(chan Event, buf), done: make(chan struct{})}
	l.mu.Lock()
	for _, ch := range channels {
		l.subs[ch] = append(l.subs[ch], s)
	}
	l.all = append(l.all, s)
	p := l.pq
	var fresh []string
	if p != nil {
		for _, ch := range channels {
			if !l.listened[ch] {
				l.listened[ch] = true
				fresh = append(fresh, ch)
			}
		}
	}
	l.mu.Unlock()
	for _, ch := range fresh {
		if err := p.Listen(ch); err != nil && !errors.Is(err, pq.ErrChannelAlreadyOpen) {
			l.log.Error("listener: listen", "channel", ch, "err", err)
		}
	}
	return s
}

// Run connects, LISTENs on every subscribed channel and dispatches until
// ctx ends, reconnecting whenever the connection drops (and telling every
// subscriber: Lost, then Reconnected).
func (l *Listener) Run(ctx context.Context) {
	if l.url == "" {
		<-ctx.Done()
		return
	}
	defer l.markReady()
	p := pq.NewListener(l.url, MinReconnect, MaxReconnect, func(ev pq.ListenerEventType, err error) {
		if err != nil {
			l.log.Warn("listener", "event", ev, "err", err)
		}
		var k Kind
		switch ev {
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			k = Lost
		default:
			return // connected (Ready says so); reconnected comes as a nil notification, in order
		}
		select {
		case l.events <- k:
		default: // a Lost is already waiting
		}
	})
	defer func() {
		l.mu.Lock()
		l.pq = nil // a later Subscribe only registers
		l.listened = map[string]bool{}
		l.mu.Unlock()
		p.Close()
	}()
	l.mu.Lock()
	l.pq = p
	var channels []string
	for ch := range l.subs {
		l.listened[ch] = true
		channels = append(channels, ch)
	}
	l.mu.Unlock()
	listened := make(chan struct{})
	go func() {
		defer close(listened)
		// Each Listen waits for the connection: the first returns once
		// connected and listening on what came before it.
		for _, ch := range channels {
			if err := p.Listen(ch); err != nil && !errors.Is(err, pq.ErrChannelAlreadyOpen) {
				l.log.Error("listener: listen", "channel", ch, "err", err)
			}
		}
		if len(channels) == 0 {
			_ = p.Ping() // connects, or fails and retries in the background
		}
		l.markReady()
	}()
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-p.Notify:
			if n == nil {
				l.dispatch(ctx, "", Event{Kind: Reconnected})
				continue
			}
			l.dispatch(ctx, n.Channel, Event{Kind: Notification, Channel: n.Channel, Payload: n.Extra})
		case k := <-l.events:
			l.dispatch(ctx, "", Event{Kind: k})
		case <-ping.C:
			go func() { _ = p.Ping() }()
		}
	}
}

// dispatch hands ev to channel's subscribers, or to everyone ("").
func (l *Listener) dispatch(ctx context.Context, channel string, ev Event) {
	l.mu.RLock()
	subs := l.all
	if channel != "" {
		subs = l.subs[channel]
	}
	subs = append([]*Sub(nil), subs...)
	l.mu.RUnlock()
	for _, s := range subs {
		select {
		case s.c <- ev:
		case <-s.done:
		case <-ctx.Done():
			return
		}
	}
}
