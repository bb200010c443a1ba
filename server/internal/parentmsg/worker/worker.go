// Package worker sends the queued parent messages: every replica runs one,
// each claims one due message per transaction with FOR UPDATE SKIP LOCKED,
// keeps it locked while the gateway answers (bounded by the gateway's
// timeout), and records the answer in the same transaction. A process
// that dies mid-send rolls its claim back: the message is due again.
package worker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/netguard"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/parentmsg/gateway"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/shared/api"
)

// Defaults of a Worker's zero fields.
const (
	DefaultConcurrency = 2
	DefaultPoll        = 30 * time.Second
	DefaultMaxAttempts = 8
	// MinPause is the shortest pause after a rate-limit answer, whatever
	// the gateway's Retry-After says.
	MinPause = 15 * time.Minute
)

// Backoff is the wait before retrying a temporary failure: First after the
// first attempt, times Factor after each further one, at most Max, moved
// by up to ±Jitter of itself so retries of many messages spread out.
type Backoff struct {
	First  time.Duration
	Factor float64
	Max    time.Duration
	Jitter float64
}

// DefaultBackoff: 30 s, 1 min, 2 min, … up to 1 h, ±20 %.
var DefaultBackoff = Backoff{First: 30 * time.Second, Factor: 2, Max: time.Hour, Jitter: 0.2}

// Delay is the wait after the attempt-th attempt (1-based).
func (b Backoff) Delay(attempt int) time.Duration {
	d := float64(b.First)
	for i := 1; i < attempt && d < float64(b.Max); i++ {
		d *= b.Factor
	}
	d = min(d, float64(b.Max))
	if b.Jitter > 0 {
		d *= 1 + b.Jitter*(2*rand.Float64()-1)
	}
	return time.Duration(d)
}

// Worker sends due messages. The zero values of the optional fields are
// the defaults above; Now defaults to time.Now.
type Worker struct {
	DB *sqlx.DB
	// Listener is the process's listener, so a commit wakes the worker at
	// once (LISTEN on parentmsg.Channel); nil: the worker only polls.
	Listener *listen.Listener
	Log      *slog.Logger
	Now      func() time.Time
	// Client carries the gateway requests (nil: the gateway's own, with the
	// school's timeout).
	Client *http.Client
	// Concurrency is how many messages this worker sends at once.
	Concurrency int
	// Poll is the longest sleep between looks at the outbox.
	Poll        time.Duration
	Backoff     Backoff
	MaxAttempts int
	// SendLease is how long a claimed send may be in flight before another
	// worker treats it as interrupted (its process killed); 0: the
	// gateway's timeout plus DefaultLeaseSlack. It must exceed a send's
	// longest duration.
	SendLease time.Duration
	// AfterAnswer, when set, runs after the gateway answered and its
	// message id was written, before the answer is recorded (the crash
	// tests kill the process there).
	AfterAnswer func()
}

// DefaultLeaseSlack is added to the gateway's timeout for the default
// SendLease.
const DefaultLeaseSlack = 2 * time.Minute

// now is the time, to the microsecond PostgreSQL keeps.
func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now().Truncate(time.Microsecond)
	}
	return time.Now().Truncate(time.Microsecond)
}

func (w *Worker) log() *slog.Logger {
	if w.Log != nil {
		return w.Log
	}
	return slog.Default()
}

// Run sends until ctx ends, waking on every queued message's commit (LISTEN
// on parentmsg.Channel), when the next message is due, and at least every
// Poll. A send in flight when ctx ends is finished and recorded first.
func (w *Worker) Run(ctx context.Context) {
	wake := make(chan struct{}, 1)
	if w.Listener != nil {
		sub := w.Listener.Subscribe(1, parentmsg.Channel)
		defer sub.Close()
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-sub.C(): // a reconnect or a lost connection: look too
					select {
					case wake <- struct{}{}:
					default:
					}
				}
			}
		}()
	}
	poll := w.Poll
	if poll <= 0 {
		poll = DefaultPoll
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-timer.C:
		}
		_, next, err := w.run(ctx)
		if err != nil && ctx.Err() == nil {
			w.log().Error("parent messages", "err", err)
		}
		wait := poll
		if !next.IsZero() {
			wait = min(poll, max(next.Sub(w.now()), 10*time.Millisecond))
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

// RunOnce sends every message due now, Concurrency at a time, and returns
// how many it tried.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	n, _, err := w.run(ctx)
	return n, err
}

// idle stops a sender: nothing is due, or sending is held (no gateway,
// the pause, the quiet hours) until the time it carries.
type idle struct{ until time.Time }

func (idle) Error() string { return "idle" }

// run is RunOnce; next is when to look again (zero: no message waits).
func (w *Worker) run(ctx context.Context) (int, time.Time, error) {
	conc := w.Concurrency
	if conc <= 0 {
		conc = DefaultConcurrency
	}
	var (
		mu    sync.Mutex
		total int
		next  time.Time
		errs  []error
		wg    sync.WaitGroup
	)
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				err := w.sendOne(ctx)
				mu.Lock()
				var i idle
				switch {
				case err == nil:
					total++
				case errors.As(err, &i):
					if next.IsZero() || (!i.until.IsZero() && i.until.Before(next)) {
						next = i.until
					}
				default:
					errs = append(errs, err)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	return total, next, errors.Join(errs...)
}

// claimed is the message a sender holds.
type claimed struct {
	ID        int64  `db:"id"`
	Phone     string `db:"phone"`
	Body      string `db:"body"`
	Attempts  int    `db:"attempts"`
	Student   string `db:"student_name"`
	StudentID int64  `db:"student_id"`
	Gone      bool   `db:"gone"`
	// Interrupted: an earlier claim's process died before recording.
	Interrupted      bool   `db:"interrupted"`
	GatewayMessageID string `db:"gateway_message_id"`
	Withdrawn        bool   `db:"withdrawn"`
	// Pref is the guardian's choice for the message's kind (family
	// portal): immediate, digest (held for the portal's daily digest) or
	// off. Sign-in codes and digests are no kind: always immediate.
	Pref string `db:"pref"`
}

// sendOne claims one due message, sends it and records the answer. It
// returns idle when there is nothing to do now.
//
// A send is two transactions around the gateway call: the claim marks the
// message as in flight (sending_since) and commits, so no transaction or
// row lock is held while the gateway answers; the gateway's message id is
// written the moment it answers; then the answer is recorded. A process
// killed in between leaves the mark: once the lease has passed, another
// worker takes the message again and, if the gateway's id is there (the
// gateway took it), records it as sent without sending it twice. What
// remains possible is documented in docs/parent-messaging.md.
func (w *Worker) sendOne(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return idle{}
	}
	// Once begun, a send is finished whatever ctx does: a send in flight is
	// completed and recorded, since an abandoned send the gateway already
	// took would go out twice.
	ctx = context.WithoutCancel(ctx)
	tx, err := w.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("worker: begin: %w", err)
	}
	defer tx.Rollback()
	now := w.now()
	set, err := parentmsg.Load(ctx, tx)
	if err != nil {
		return err
	}
	if !set.Configured() {
		return idle{}
	}
	var paused sql.NullTime
	if err := tx.GetContext(ctx, &paused, `SELECT paused_until FROM messaging_state`); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("worker: state: %w", err)
	}
	if paused.Valid && paused.Time.After(now) {
		return idle{until: paused.Time}
	}
	// The quiet hours are checked here too: they may have been changed
	// since the message was queued.
	// A portal sign-in code is never held by them (the guardian waits at
	// the screen): during quiet hours only codes are claimed.
	quietUntil, quiet := parentmsg.QuietUntil(set.QuietHours, now)
	lease := w.SendLease
	if lease <= 0 {
		lease = set.Gateway.Timeout() + DefaultLeaseSlack
	}
	var m claimed
	// gone: what caused the message was undone before it went out (the
	// violation deleted, the letter withdrawn, the handling deleted; an
	// attendance day left with nothing is deleted by the ledger instead), or
	// a portal code outlived its five minutes, a "belum hadir" whose child
	// has since been marked there or excused. withdrawn: the number is a
	// guardian who withdrew their consent in the family portal (UU 27/2022):
	// nothing but their own sign-in code goes to it, whichever path queued it.
	const claim = `SELECT m.id, m.phone, m.body, m.attempts, m.student_id, s.full_name AS student_name,
		    m.sending_since IS NOT NULL AS interrupted, m.gateway_message_id,
		    (m.event = 'violation' AND m.violation_id IS NULL AND m.attendance_date IS NULL) OR (m.event = 'summons' AND m.handling_id IS NULL)
		    OR (m.event = 'portal_code' AND m.created_at < $1 - interval '5 minutes')
		    OR (m.event = 'warning_letter' AND NOT m.correction AND (m.letter_id IS NULL
		        OR EXISTS (SELECT 1 FROM warning_letters w WHERE w.id = m.letter_id AND w.status = 'withdrawn')))
		    OR (m.event = 'absent_notice' AND (EXISTS (SELECT 1 FROM attendance a WHERE a.student_id = m.student_id AND a.date = m.notice_day
		            AND a.status IN ('H', 'T', 'S', 'I'))
		        OR EXISTS (SELECT 1 FROM excuses e WHERE e.student_id = m.student_id AND e.status IN ('pending', 'approved')
		            AND m.notice_day BETWEEN e.date_from AND e.date_to))) AS gone,
		    m.event <> 'portal_code' AND EXISTS (SELECT 1 FROM guardians g WHERE g.phone = m.phone AND g.withdrawn_at IS NOT NULL) AS withdrawn,
		    COALESCE((SELECT p.mode FROM guardians g JOIN guardian_notification_prefs p ON p.guardian_id = g.id
		        WHERE g.phone = m.phone AND p.kind = CASE WHEN m.event = 'violation' AND m.attendance_date IS NOT NULL THEN 'attendance' ELSE m.event END),
		        'immediate') AS pref
		FROM (SELECT id, event, violation_id, letter_id, handling_id, attendance_date, notice_day, correction, phone, body, attempts, student_id, created_at,
		             sending_since, gateway_message_id
		      FROM parent_messages
		      WHERE status = 'queued' AND next_attempt_at <= $1 AND (sending_since IS NULL OR sending_since < $2) AND (NOT $3 OR event = 'portal_code')
		      ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) m
		JOIN students s ON s.id = m.student_id`
	err = tx.GetContext(ctx, &m, claim, now, now.Add(-lease), quiet)
	if errors.Is(err, sql.ErrNoRows) && quiet {
		return idle{until: quietUntil}
	}
	if errors.Is(err, sql.ErrNoRows) {
		var due sql.NullTime
		if err := tx.GetContext(ctx, &due, `SELECT min(CASE WHEN sending_since IS NULL THEN next_attempt_at
			ELSE GREATEST(next_attempt_at, sending_since + $1 * interval '1 microsecond') END)
			FROM parent_messages WHERE status = 'queued'`, lease.Microseconds()); err != nil {
			return fmt.Errorf("worker: next due: %w", err)
		}
		if due.Valid && !due.Time.After(now) {
			// Due but locked by another sender: look again soon.
			return idle{until: now.Add(time.Second)}
		}
		return idle{until: due.Time}
	}
	if err != nil {
		return fmt.Errorf("worker: claim: %w", err)
	}
	if m.Withdrawn {
		if _, err := tx.ExecContext(ctx, `UPDATE parent_messages SET status = 'skipped', skip_reason = 'consent_withdrawn', sending_since = NULL, updated_at = $2 WHERE id = $1`, m.ID, now); err != nil {
			return fmt.Errorf("worker: skip withdrawn: %w", err)
		}
		return tx.Commit()
	}
	if m.Gone {
		if _, err := tx.ExecContext(ctx, `UPDATE parent_messages SET status = 'cancelled', sending_since = NULL, updated_at = $2 WHERE id = $1`, m.ID, now); err != nil {
			return fmt.Errorf("worker: cancel: %w", err)
		}
		return tx.Commit()
	}
	if !m.Interrupted && (m.Pref == "digest" || m.Pref == "off") {
		reason := "digest"
		if m.Pref == "off" {
			reason = "guardian_off"
		}
		if _, err := tx.ExecContext(ctx, `UPDATE parent_messages SET status = 'skipped', skip_reason = $3, sending_since = NULL, updated_at = $2 WHERE id = $1`, m.ID, now, reason); err != nil {
			return fmt.Errorf("worker: hold for the guardian: %w", err)
		}
		return tx.Commit()
	}
	if m.Interrupted && m.GatewayMessageID != "" {
		// The gateway took it (it gave its id) and the process died before
		// the answer was recorded: record it now, never send it again.
		res := gateway.Result{Outcome: gateway.Sent, MessageID: m.GatewayMessageID, Reason: "ok",
			Answer: "recorded after an interrupted send: the gateway had already given id " + m.GatewayMessageID}
		if err := w.record(ctx, tx, m, set.Gateway.Kind, res); err != nil {
			return err
		}
		return tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, `UPDATE parent_messages SET sending_since = $2 WHERE id = $1`, m.ID, now); err != nil {
		return fmt.Errorf("worker: mark: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("worker: claim commit: %w", err)
	}

	cfg := gateway.Config{Kind: set.Gateway.Kind, BaseURL: set.Gateway.BaseURL, Token: set.Gateway.Token,
		Username: set.Gateway.Username, Password: set.Gateway.Password, WebhookBody: set.Gateway.WebhookBody,
		Timeout: set.Gateway.Timeout()}
	var res gateway.Result
	g, err := gateway.New(cfg, w.Client)
	if err != nil {
		res = gateway.Result{Outcome: gateway.Permanent, Answer: err.Error(), Reason: "bad_config"}
	} else {
		sendCtx, cancel := context.WithTimeout(ctx, cfg.Timeout)
		res = g.Send(sendCtx, gateway.Message{Phone: m.Phone, Text: m.Body, StudentName: m.Student})
		cancel()
	}
	if res.MessageID != "" {
		if _, err := w.DB.ExecContext(ctx, `UPDATE parent_messages SET gateway_message_id = $2 WHERE id = $1`, m.ID, res.MessageID); err != nil {
			return fmt.Errorf("worker: message id: %w", err)
		}
	}
	if w.AfterAnswer != nil {
		w.AfterAnswer()
	}
	tx, err = w.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("worker: begin: %w", err)
	}
	defer tx.Rollback()
	if err := w.record(ctx, tx, m, set.Gateway.Kind, res); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("worker: commit: %w", err)
	}
	return nil
}

// record writes res as the message's last answer and an attempt row, and
// the shared pause after a rate limit.
func (w *Worker) record(ctx context.Context, tx *sqlx.Tx, m claimed, kind string, res gateway.Result) error {
	now := w.now()
	attempts := m.Attempts + 1
	limit := w.MaxAttempts
	if limit <= 0 {
		limit = DefaultMaxAttempts
	}
	backoff := w.Backoff
	if backoff.First <= 0 {
		backoff = DefaultBackoff
	}
	status, next := api.ParentMessageQueued, now
	var sentAt *time.Time
	switch res.Outcome {
	case gateway.Sent:
		status, sentAt = api.ParentMessageSent, &now
	case gateway.Permanent:
		status = api.ParentMessageFailed
	case gateway.RateLimited:
		// Every replica waits: the gateway limits the school's account,
		// not one process.
		next = now.Add(max(res.RetryAfter, MinPause))
		if _, err := tx.ExecContext(ctx, `UPDATE messaging_state SET paused_until = GREATEST(COALESCE(paused_until, $1), $1),
			pause_reason = $2`, next, res.Reason); err != nil {
			return fmt.Errorf("worker: pause: %w", err)
		}
	default: // temporary, or an outcome this worker does not know
		if attempts >= limit {
			status = api.ParentMessageFailed
		} else {
			next = now.Add(backoff.Delay(attempts))
		}
	}
	var httpStatus *int
	if res.HTTPStatus != 0 {
		httpStatus = &res.HTTPStatus
	}
	answer := res.Answer
	if len(answer) > gateway.MaxAnswer {
		answer = answer[:gateway.MaxAnswer]
	}
	answer = strings.ToValidUTF8(answer, "\uFFFD")
	const q = `WITH a AS (
		INSERT INTO parent_message_attempts (message_id, attempted_at, duration_ms, gateway, outcome, http_status, answer)
		VALUES ($1, $2, $3, $4, $5, $6, $7))
		UPDATE parent_messages SET status = $8, attempts = $9, next_attempt_at = $10, gateway = $4,
		    gateway_message_id = CASE WHEN $11 <> '' THEN $11 ELSE gateway_message_id END,
		    last_outcome = $5, last_http_status = $6, last_answer = $7, sent_at = COALESCE($12, sent_at), updated_at = $2,
		    sending_since = NULL
		WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, m.ID, now, res.Duration.Milliseconds(), kind, string(res.Outcome), httpStatus, answer,
		status, attempts, next, res.MessageID, sentAt); err != nil {
		return fmt.Errorf("worker: record: %w", err)
	}
	if res.Outcome != gateway.Sent {
		w.log().Warn("parent message not sent", "id", m.ID, "outcome", res.Outcome, "reason", res.Reason,
			"http_status", res.HTTPStatus, "attempts", attempts, "status", status)
	}
	return nil
}

// Background runs d's worker with the server, unless
// TATIB_MESSAGING_WORKERS is 0 (another replica sends). It stops claiming
// when ctx ends and returns once the sends in flight are recorded, so a
// stopping server can wait for them (an unrecorded send would go out again
// after the restart).
func Background(ctx context.Context, d app.Deps) {
	if d.Config.MessagingWorkers <= 0 {
		d.Log.Info("parent messages: this process sends none (TATIB_MESSAGING_WORKERS=0)")
		return
	}
	w := &Worker{DB: d.DB, Listener: d.Listen, Log: d.Log, Concurrency: d.Config.MessagingWorkers,
		Client: netguard.Client(time.Duration(parentmsg.MaxTimeout+1)*time.Second, netguard.LocalAllowed())}
	w.Run(ctx)
}

// ShutdownWait is how long a stopping server waits for sends in flight:
// the longest gateway timeout a school can set, and a second to record.
const ShutdownWait = time.Duration(parentmsg.MaxTimeout+1) * time.Second
