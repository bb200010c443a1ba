package listen_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// wait returns the next event of s other than a Lost (those repeat while
// the connection is down), failing after d.
func wait(t *testing.T, s *listen.Sub, d time.Duration) listen.Event {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev := <-s.C():
			if ev.Kind != listen.Lost {
				return ev
			}
		case <-timeout:
			t.Fatal("no event")
		}
	}
}

// One connection serves several channels and subscribers; each payload
// reaches only its channel's subscribers; a terminated backend is
// replaced, reported to every subscriber, and listens again.
func TestOneConnectionManyChannels(t *testing.T) {
	t.Parallel()
	url := pgtest.NewURL(t)
	db, err := sqlx.Open("postgres", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	l := listen.New(url, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a := l.Subscribe(8, "tatib_a", "tatib_shared")
	b := l.Subscribe(8, "tatib_b", "tatib_shared")
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { l.Run(ctx); close(stopped) }()
	t.Cleanup(func() { cancel(); <-stopped })
	<-l.Ready()
	// A subscription after the start joins the same connection.
	c := l.Subscribe(8, "tatib_c")

	listeners := func() []int {
		var pids []int
		if err := db.Select(&pids, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
			AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`); err != nil {
			t.Fatal(err)
		}
		return pids
	}
	pids := listeners()
	if len(pids) != 1 {
		t.Fatalf("listening backends: %v, want one", pids)
	}
	db.MustExec(`SELECT pg_notify('tatib_a', 'for a'), pg_notify('tatib_c', 'for c'), pg_notify('tatib_shared', 'for both')`)
	if ev := wait(t, a, 5*time.Second); ev.Channel != "tatib_a" || ev.Payload != "for a" {
		t.Fatalf("a got %+v", ev)
	}
	if ev := wait(t, c, 5*time.Second); ev.Channel != "tatib_c" || ev.Payload != "for c" {
		t.Fatalf("c got %+v", ev)
	}
	for name, s := range map[string]*listen.Sub{"a": a, "b": b} {
		if ev := wait(t, s, 5*time.Second); ev.Channel != "tatib_shared" || ev.Payload != "for both" {
			t.Fatalf("%s got %+v", name, ev)
		}
	}
	select {
	case ev := <-b.C():
		t.Fatalf("b got another channel's %+v", ev)
	case <-time.After(100 * time.Millisecond):
	}

	db.MustExec(`SELECT pg_terminate_backend($1)`, pids[0])
	for name, s := range map[string]*listen.Sub{"a": a, "b": b, "c": c} {
		select {
		case ev := <-s.C():
			if ev.Kind != listen.Lost {
				t.Fatalf("%s after the backend was terminated: %+v, want lost", name, ev)
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("%s was not told the connection was lost", name)
		}
		if ev := wait(t, s, 15*time.Second); ev.Kind != listen.Reconnected {
			t.Fatalf("%s after the backend was terminated: %+v, want reconnected", name, ev)
		}
	}
	if pids := listeners(); len(pids) != 1 {
		t.Fatalf("listening backends after the reconnect: %v, want one", pids)
	}
	db.MustExec(`SELECT pg_notify('tatib_c', 'again')`)
	if ev := wait(t, c, 5*time.Second); ev.Payload != "again" {
		t.Fatalf("c after the reconnect got %+v", ev)
	}
	c.Close()
	db.MustExec(`SELECT pg_notify('tatib_b', 'still')`)
	if ev := wait(t, b, 5*time.Second); ev.Payload != "still" {
		t.Fatalf("b got %+v", ev)
	}
}
