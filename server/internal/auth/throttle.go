package auth

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
)

// An attempt is a sign-in reserved in login_failures before its password is
// checked. It counts as a failure from the moment it is reserved, so however
// many requests arrive at once, on however many replicas, no more than the
// limits reach the password check; a success withdraws its own row only.
type attempt struct {
	id int64
	// device is the trusted device the attempt came from (0: none).
	device int64
	// addrLocked: the address is past its limit and this attempt passed only
	// because its username has no failure in the window. Such an attempt
	// never spends bcrypt on an unknown username.
	addrLocked bool
}

// reserve takes the per-username and per-address advisory locks, counts the
// recent failures and, when the attempt may go on, records it as a failure
// before anyone checks its password. The locks make count-and-insert atomic
// across replicas; they are always taken username first, so two sign-ins
// cannot wait on each other in a cycle.
//
// The rules (README, "Sign-in throttling"):
//   - a username with UserFailures failures in the window is refused;
//   - an address with AddrFailures failures in the window is refused for
//     every username that has a failure in the window, and otherwise let
//     through on the locked path, its failure counting against both: a
//     school's shared address stays usable for colleagues who type their
//     password right, while an attacker behind it gets one guess per
//     username per window.
//
// An attempt from a trusted device (device != 0: one that signed in as this
// username before, see trustedDevice) is counted apart: UserFailures
// failures of that device lock that device only, and failures from
// anywhere else never lock it. An anonymous guesser can then keep an
// account's untrusted sign-ins out, but not its owner on their own device.
func (s *Service) reserve(ctx context.Context, username, addr string, device int64) (attempt, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return attempt{}, fmt.Errorf("auth: throttle: %w", err)
	}
	defer tx.Rollback()
	if device != 0 {
		return s.reserveDevice(ctx, tx, username, addr, device)
	}

	const lock = `SELECT pg_advisory_xact_lock(hashtext('tatib.login.username'), hashtext(lower($1))),
		pg_advisory_xact_lock(hashtext('tatib.login.address'), hashtext($2))`
	if _, err := tx.ExecContext(ctx, lock, username, addr); err != nil {
		return attempt{}, fmt.Errorf("auth: throttle lock: %w", err)
	}
	now := s.now()
	// nth newest failure: once it leaves the window, the count is under the
	// limit again.
	const q = `WITH u AS (SELECT at FROM login_failures WHERE lower(username) = lower($1) AND at > $3 AND device_id IS NULL),
		a AS (SELECT at FROM login_failures WHERE address = $2 AND at > $3 AND device_id IS NULL)
		SELECT (SELECT count(*) FROM u), (SELECT max(at) FROM u),
			(SELECT at FROM u ORDER BY at DESC OFFSET $4 - 1 LIMIT 1),
			(SELECT count(*) FROM a),
			(SELECT at FROM a ORDER BY at DESC OFFSET $5 - 1 LIMIT 1)`
	var nUser, nAddr int
	var lastUser, nthUser, nthAddr sql.NullTime
	if err := tx.QueryRowContext(ctx, q, username, addr, now.Add(-s.opt.Window), s.opt.UserFailures, s.opt.AddrFailures).
		Scan(&nUser, &lastUser, &nthUser, &nAddr, &nthAddr); err != nil {
		return attempt{}, fmt.Errorf("auth: throttle: %w", err)
	}
	a := attempt{addrLocked: nAddr >= s.opt.AddrFailures}
	switch {
	case nUser >= s.opt.UserFailures:
		return attempt{}, s.throttledUntil(nthUser.Time.Add(s.opt.Window))
	case a.addrLocked && nUser > 0:
		// Free again when the address drops under its limit or the
		// username's failures leave the window, whichever comes first.
		until := nthAddr.Time.Add(s.opt.Window)
		if u := lastUser.Time.Add(s.opt.Window); u.Before(until) {
			until = u
		}
		return attempt{}, s.throttledUntil(until)
	}
	const ins = `INSERT INTO login_failures (username, address, at) VALUES ($1, $2, $3) RETURNING id`
	if err := tx.QueryRowContext(ctx, ins, username, addr, now).Scan(&a.id); err != nil {
		return attempt{}, fmt.Errorf("auth: reserve attempt: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return attempt{}, fmt.Errorf("auth: reserve attempt: %w", err)
	}
	return a, nil
}

// reserveDevice is reserve for an attempt from a trusted device: its own
// failures only, under the device's own lock.
func (s *Service) reserveDevice(ctx context.Context, tx *sqlx.Tx, username, addr string, device int64) (attempt, error) {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.login.device'), $1::int)`, device%(1<<31)); err != nil {
		return attempt{}, fmt.Errorf("auth: throttle lock: %w", err)
	}
	now := s.now()
	var n int
	var nth sql.NullTime
	const q = `WITH d AS (SELECT at FROM login_failures WHERE device_id = $1 AND at > $2)
		SELECT (SELECT count(*) FROM d), (SELECT at FROM d ORDER BY at DESC OFFSET $3 - 1 LIMIT 1)`
	if err := tx.QueryRowContext(ctx, q, device, now.Add(-s.opt.Window), s.opt.UserFailures).Scan(&n, &nth); err != nil {
		return attempt{}, fmt.Errorf("auth: throttle: %w", err)
	}
	if n >= s.opt.UserFailures {
		return attempt{}, s.throttledUntil(nth.Time.Add(s.opt.Window))
	}
	a := attempt{device: device}
	const ins = `INSERT INTO login_failures (username, address, at, device_id) VALUES ($1, $2, $3, $4) RETURNING id`
	if err := tx.QueryRowContext(ctx, ins, username, addr, now, device).Scan(&a.id); err != nil {
		return attempt{}, fmt.Errorf("auth: reserve attempt: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return attempt{}, fmt.Errorf("auth: reserve attempt: %w", err)
	}
	return a, nil
}

// withdraw removes a reserved attempt that did not fail: the password was
// right, or it was never checked.
func (s *Service) withdraw(ctx context.Context, a attempt) error {
	ctx = context.WithoutCancel(ctx)
	if _, err := s.db.ExecContext(ctx, `DELETE FROM login_failures WHERE id = $1`, a.id); err != nil {
		return fmt.Errorf("auth: withdraw attempt: %w", err)
	}
	return nil
}

func (s *Service) throttledUntil(until time.Time) error {
	wait := until.Sub(s.now())
	return &apperr.Error{Code: apperr.RateLimited, RetryAfter: max(1, int(math.Ceil(wait.Seconds()))),
		Msg: apperr.M("auth.throttled", "minutes", max(1, int(math.Ceil(wait.Minutes()))))}
}

// busyRetryAfter is the Retry-After, in seconds, of a sign-in refused
// because every password check slot stayed taken.
const busyRetryAfter = 5

// checkPassword compares pw with hash inside the password-check semaphore,
// so a flood of sign-ins cannot take every CPU from signed-in requests. It
// answers Unavailable when no slot frees within PasswordWait; any error
// means no password was compared.
func (s *Service) checkPassword(ctx context.Context, hash, pw string) (bool, error) {
	t := time.NewTimer(s.opt.PasswordWait)
	defer t.Stop()
	select {
	case s.checkSlots <- struct{}{}:
	case <-t.C:
		return false, &apperr.Error{Code: apperr.Unavailable, RetryAfter: busyRetryAfter, Msg: apperr.M("auth.busy")}
	case <-ctx.Done():
		return false, fmt.Errorf("auth: waiting for a password check: %w", ctx.Err())
	}
	defer func() { <-s.checkSlots }()
	s.checks.Add(1)
	start := time.Now()
	ok := CheckPassword(hash, pw)
	s.checkNanos.Store(int64(time.Since(start)))
	return ok, nil
}

// imitateCheck waits about as long as a password check takes, without the
// CPU: an unknown username on a locked address is answered no faster than a
// known one, yet costs no bcrypt.
func (s *Service) imitateCheck(ctx context.Context) {
	d := time.Duration(s.checkNanos.Load())
	if d <= 0 {
		d = 50 * time.Millisecond
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
