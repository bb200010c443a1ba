package pg

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Session opens one connection of its own on url (the direct URL, never a
// transaction pooler's), for what must outlive a transaction: a session
// advisory lock. end closes it, which also ends whatever the session held;
// so does the process's death.
func Session(ctx context.Context, url string) (conn *sqlx.Conn, end func(), err error) {
	db, err := OpenPool(ctx, url, 1)
	if err != nil {
		return nil, nil, err
	}
	c, err := db.Connx(ctx)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("pg: session: %w", err)
	}
	return c, func() { c.Close(); db.Close() }, nil
}

// ErrNoSession is CheckDirect's answer when the direct URL does not keep a
// session between statements (a pooler in transaction mode).
var ErrNoSession = errors.New("pg: the direct URL keeps no session")

// CheckDirect makes sure directURL gives this process a session of its own
// on the same database pooled talks to: a LISTEN on directURL must hear a
// NOTIFY sent through pooled within wait. Behind a pooler in transaction
// mode the LISTEN lands on a server connection that goes back to the pool,
// and nothing is ever heard (ErrNoSession): then notifications would never
// arrive, and the migration and backup locks would stay held by idle
// pooled connections. A different database fails the same way.
func CheckDirect(ctx context.Context, pooled *sqlx.DB, directURL string, wait time.Duration) error {
	heard := make(chan *pq.Notification, 8)
	type dialed struct {
		l   *pq.ListenerConn
		err error
	}
	dial := make(chan dialed, 1)
	go func() {
		l, err := pq.NewListenerConn(directURL, heard)
		dial <- dialed{l, err}
	}()
	var l *pq.ListenerConn
	select {
	case d := <-dial:
		if d.err != nil {
			return fmt.Errorf("pg: direct URL: connect: %w", d.err)
		}
		l = d.l
	case <-time.After(10 * time.Second):
		return errors.New("pg: direct URL: no connection within 10s")
	case <-ctx.Done():
		return ctx.Err()
	}
	defer l.Close()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	channel := "tatib_direct_check_" + hex.EncodeToString(b)
	if _, err := l.Listen(channel); err != nil {
		return fmt.Errorf("pg: direct URL: listen: %w", err)
	}
	if _, err := pooled.ExecContext(ctx, `SELECT pg_notify($1, 'check')`, channel); err != nil {
		return fmt.Errorf("pg: direct URL: notify: %w", err)
	}
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for {
		select {
		case n, ok := <-heard:
			if !ok {
				return fmt.Errorf("%w: the connection closed", ErrNoSession)
			}
			if n.Channel == channel {
				return nil
			}
		case <-timeout.C:
			return fmt.Errorf("%w: a NOTIFY sent through DATABASE_URL was not heard by a LISTEN on the direct URL within %s", ErrNoSession, wait)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
