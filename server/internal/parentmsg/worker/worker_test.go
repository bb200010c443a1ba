package worker_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/parentmsg/worker"
	"github.com/tatib/tatib/server/internal/parentmsg/worker/outboxtest"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/sim/wa"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// fixture is a school with its messaging pointed at a Fonnte simulator.
type fixture struct {
	db      *sqlx.DB
	school  *outboxtest.School
	sim     *wasim.Sim
	base    string
	student int64
	clock   *clock
}

// clock is the workers' injected time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now is the time set, or the real time while none is.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t.IsZero() {
		return time.Now()
	}
	return c.t
}

func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func newFixture(t testing.TB, db *sqlx.DB, change func(*parentmsg.Settings)) *fixture {
	t.Helper()
	if db == nil {
		db = pgtest.New(t)
	}
	f := &fixture{db: db, school: outboxtest.New(t, db), sim: wasim.New(wasim.Fonnte), clock: &clock{}}
	f.base = f.sim.Start()
	t.Cleanup(f.sim.Close)
	outboxtest.Configure(t, db, f.base, change)
	f.student = f.school.Student(t, "Budi Santoso", "Pak Santoso", "0812-3456-7890")
	return f
}

func (f *fixture) worker() *worker.Worker {
	return &worker.Worker{DB: f.db, Now: f.clock.Now, Concurrency: 1}
}

// record records a 10-point violation (its message is queued).
func (f *fixture) record(t testing.TB) int64 {
	t.Helper()
	return f.school.Record(t, f.student, time.Now().Add(-time.Hour), false, f.school.T10).ViolationIDs[0]
}

func runOnce(t testing.TB, w *worker.Worker) int {
	t.Helper()
	n, err := w.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type attempt struct {
	Outcome    string `db:"outcome"`
	HTTPStatus *int   `db:"http_status"`
	Answer     string `db:"answer"`
}

func attempts(t testing.TB, db *sqlx.DB) []attempt {
	t.Helper()
	var out []attempt
	outboxtest.Must(t, db.Select(&out, `SELECT outcome, http_status, answer FROM parent_message_attempts ORDER BY id`))
	return out
}

func one(t testing.TB, db *sqlx.DB) outboxtest.Message {
	t.Helper()
	msgs := outboxtest.Messages(t, db)
	if len(msgs) != 1 {
		t.Fatalf("want one message: %+v", msgs)
	}
	return msgs[0]
}

func TestSendsAQueuedMessage(t *testing.T) {
	f := newFixture(t, nil, nil)
	f.record(t)
	if n := runOnce(t, f.worker()); n != 1 {
		t.Fatalf("RunOnce sent %d", n)
	}
	m := one(t, f.db)
	if m.Status != api.ParentMessageSent || m.Attempts != 1 || m.GatewayID == "" || m.SentAt == nil || m.LastOutcome != api.OutcomeSent {
		t.Fatalf("message: %+v", m)
	}
	got := f.sim.Messages()
	if len(got) != 1 || got[0].Phone != "6281234567890" || got[0].Text != m.Body || got[0].ID != m.GatewayID {
		t.Fatalf("simulator got %+v; message %+v", got, m)
	}
	if a := attempts(t, f.db); len(a) != 1 || a[0].Outcome != api.OutcomeSent || a[0].HTTPStatus == nil || *a[0].HTTPStatus != 200 {
		t.Fatalf("attempts: %+v", a)
	}
	if n := runOnce(t, f.worker()); n != 0 || f.sim.Requests() != 1 {
		t.Fatalf("second run sent %d (requests %d)", n, f.sim.Requests())
	}
}

func TestNoGatewayNothingSent(t *testing.T) {
	f := newFixture(t, nil, nil)
	f.record(t)
	// the gateway is removed after the message was queued
	outboxtest.Configure(t, f.db, "", func(s *parentmsg.Settings) { s.Gateway = parentmsg.Gateway{} })
	if n := runOnce(t, f.worker()); n != 0 || f.sim.Requests() != 0 || one(t, f.db).Status != api.ParentMessageQueued {
		t.Fatalf("sent %d without a gateway", n)
	}
}

func TestQuietHoursHoldAndRelease(t *testing.T) {
	t.Run("AtClaim", func(t *testing.T) {
		// Quiet hours set after the message was queued hold it too.
		f := newFixture(t, nil, nil)
		f.record(t)
		outboxtest.Configure(t, f.db, f.base, func(s *parentmsg.Settings) { s.QuietHours = &api.QuietHours{From: "21:00", To: "06:00"} })
		night := schoolday.Today().At(22, 0)
		if night.Before(time.Now()) {
			night = night.AddDate(0, 0, 1)
		}
		f.clock.Set(night)
		if n := runOnce(t, f.worker()); n != 0 || f.sim.Requests() != 0 {
			t.Fatalf("sent %d in the quiet hours", n)
		}
		f.clock.Set(night.Add(7*time.Hour + time.Minute)) // 05:01
		if n := runOnce(t, f.worker()); n != 0 {
			t.Fatalf("sent %d before 06:00", n)
		}
		f.clock.Set(night.Add(8*time.Hour + time.Minute)) // 06:01
		if n := runOnce(t, f.worker()); n != 1 || one(t, f.db).Status != api.ParentMessageSent {
			t.Fatalf("sent %d after the quiet hours", n)
		}
	})
	t.Run("AtQueue", func(t *testing.T) {
		// Queued inside the quiet hours: due at their end.
		now := schoolday.In(time.Now())
		f := newFixture(t, nil, func(s *parentmsg.Settings) {
			s.QuietHours = &api.QuietHours{From: now.Add(-time.Hour).Format("15:04"), To: now.Add(time.Hour).Format("15:04")}
		})
		f.record(t)
		m := one(t, f.db)
		if m.NextAttemptAt.Before(now.Add(50 * time.Minute)) {
			t.Fatalf("due at %v", m.NextAttemptAt)
		}
		// The school ends the quiet hours: still held until the message is due.
		outboxtest.Configure(t, f.db, f.base, nil)
		if n := runOnce(t, f.worker()); n != 0 {
			t.Fatalf("sent %d before due", n)
		}
		f.clock.Set(m.NextAttemptAt.Add(time.Second))
		if n := runOnce(t, f.worker()); n != 1 || one(t, f.db).Status != api.ParentMessageSent {
			t.Fatalf("sent %d when due", n)
		}
	})
}

func TestTemporaryFailureRetriedWithBackoff(t *testing.T) {
	f := newFixture(t, nil, nil)
	f.record(t)
	outboxtest.Must(t, f.sim.SetMode(wasim.Mode{Mode: wasim.ModeServerError, FailFirst: 2}))
	t0 := time.Now().Add(time.Minute).Truncate(time.Microsecond)
	f.clock.Set(t0)
	w := f.worker()
	if n := runOnce(t, w); n != 1 {
		t.Fatalf("first run: %d", n)
	}
	m := one(t, f.db)
	wait := m.NextAttemptAt.Sub(t0)
	if m.Status != api.ParentMessageQueued || m.Attempts != 1 || m.LastOutcome != api.OutcomeTemporary || wait < 24*time.Second || wait > 36*time.Second {
		t.Fatalf("after a 5xx: %+v (waits %v)", m, wait)
	}
	if n := runOnce(t, w); n != 0 {
		t.Fatalf("retried before the backoff: %d", n)
	}
	f.clock.Set(m.NextAttemptAt)
	if n := runOnce(t, w); n != 1 {
		t.Fatalf("second attempt: %d", n)
	}
	m2 := one(t, f.db)
	wait = m2.NextAttemptAt.Sub(m.NextAttemptAt)
	if m2.Attempts != 2 || wait < 48*time.Second || wait > 72*time.Second {
		t.Fatalf("after the second 5xx: %+v (waits %v)", m2, wait)
	}
	f.clock.Set(m2.NextAttemptAt)
	if n := runOnce(t, w); n != 1 {
		t.Fatalf("third attempt: %d", n)
	}
	m3 := one(t, f.db)
	if m3.Status != api.ParentMessageSent || m3.Attempts != 3 || len(f.sim.Messages()) != 1 {
		t.Fatalf("after recovery: %+v, simulator %d", m3, len(f.sim.Messages()))
	}
	a := attempts(t, f.db)
	if len(a) != 3 || a[0].Outcome != api.OutcomeTemporary || a[1].Outcome != api.OutcomeTemporary || a[2].Outcome != api.OutcomeSent {
		t.Fatalf("attempts: %+v", a)
	}
}

func TestTemporaryFailureGivesUpAfterMaxAttempts(t *testing.T) {
	f := newFixture(t, nil, nil)
	f.record(t)
	outboxtest.Must(t, f.sim.SetMode(wasim.Mode{Mode: wasim.ModeServerError}))
	w := f.worker()
	w.MaxAttempts = 3
	for i := range 3 {
		f.clock.Set(time.Now().Add(time.Duration(i+1) * time.Hour))
		if n := runOnce(t, w); n != 1 {
			t.Fatalf("attempt %d: %d", i+1, n)
		}
	}
	if m := one(t, f.db); m.Status != api.ParentMessageFailed || m.Attempts != 3 {
		t.Fatalf("after %d failures: %+v", 3, m)
	}
	f.clock.Set(time.Now().Add(24 * time.Hour))
	if n := runOnce(t, w); n != 0 || f.sim.Requests() != 3 {
		t.Fatalf("a failed message was tried again")
	}
}

func TestPermanentFailureIsNotRetried(t *testing.T) {
	f := newFixture(t, nil, nil)
	f.record(t)
	outboxtest.Must(t, f.sim.SetMode(wasim.Mode{Mode: wasim.ModeBadToken}))
	w := f.worker()
	if n := runOnce(t, w); n != 1 {
		t.Fatalf("run: %d", n)
	}
	m := one(t, f.db)
	if m.Status != api.ParentMessageFailed || m.Attempts != 1 || m.LastOutcome != api.OutcomePermanent {
		t.Fatalf("after a bad token: %+v", m)
	}
	f.clock.Set(time.Now().Add(24 * time.Hour))
	if n := runOnce(t, w); n != 0 || f.sim.Requests() != 1 {
		t.Fatalf("retried a permanent failure: %d, requests %d", n, f.sim.Requests())
	}
}

func TestRateLimitPausesEveryWorker(t *testing.T) {
	f := newFixture(t, nil, nil)
	other := f.school.Student(t, "Citra", "Bu Citra", "081311112222")
	f.record(t)
	f.school.Record(t, other, time.Now().Add(-time.Hour), false, f.school.T10)
	outboxtest.Must(t, f.sim.SetMode(wasim.Mode{Mode: wasim.ModeRateLimit, FailFirst: 1}))
	t0 := time.Now().Add(time.Minute).Truncate(time.Microsecond)
	f.clock.Set(t0)
	a, b := f.worker(), f.worker()
	if n := runOnce(t, a); n != 1 {
		t.Fatalf("worker a: %d (the second message must wait for the pause)", n)
	}
	var paused time.Time
	outboxtest.Must(t, f.db.Get(&paused, `SELECT paused_until FROM messaging_state`))
	if d := paused.Sub(t0); d < worker.MinPause || d > worker.MinPause+time.Minute {
		t.Fatalf("paused for %v", d)
	}
	if n := runOnce(t, b); n != 0 || f.sim.Requests() != 1 {
		t.Fatalf("worker b sent %d during the pause", n)
	}
	f.clock.Set(paused.Add(time.Second))
	if n := runOnce(t, b); n != 2 {
		t.Fatalf("worker b after the pause: %d", n)
	}
	for _, m := range outboxtest.Messages(t, f.db) {
		if m.Status != api.ParentMessageSent {
			t.Fatalf("message %+v", m)
		}
	}
}

func TestTwoWorkersNeverSendOneMessageTwice(t *testing.T) {
	f := newFixture(t, nil, nil)
	const n = 200
	// 200 queued messages, each text unique so the simulator can tell a
	// duplicate from another message.
	f.queue(t, n)
	outboxtest.Must(t, f.sim.SetMode(wasim.Mode{Mode: wasim.ModeOK, DelayMS: 2}))
	ws := []*worker.Worker{f.worker(), f.worker()}
	ws[0].Concurrency, ws[1].Concurrency = 4, 3
	var wg sync.WaitGroup
	counts := make([]int, len(ws))
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, err := w.RunOnce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				counts[i] += k
				if k == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	if counts[0]+counts[1] != n || counts[0] == 0 || counts[1] == 0 {
		t.Fatalf("workers sent %v", counts)
	}
	if got := len(f.sim.Messages()); got != n || f.sim.Duplicates() != 0 || f.sim.Requests() != n {
		t.Fatalf("simulator: %d messages, %d duplicates, %d requests", got, f.sim.Duplicates(), f.sim.Requests())
	}
	var sent int
	outboxtest.Must(t, f.db.Get(&sent, `SELECT count(*) FROM parent_messages WHERE status = 'sent' AND attempts = 1`))
	if sent != n {
		t.Fatalf("%d sent once", sent)
	}
}

// queue queues n messages, each of its own violation and with its own
// text (so the simulator tells a duplicate from another message).
func (f *fixture) queue(t testing.TB, n int) {
	t.Helper()
	outboxtest.Must(t, dbExec(f.db, `WITH v AS (
		INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points)
		SELECT $1, $2, $3, now(), current_date, 10 FROM generate_series(1, $4) RETURNING id)
		INSERT INTO parent_messages (student_id, event, violation_id, phone, body)
		SELECT $1, 'violation', v.id, '6281234567890', 'Yth. Bapak/Ibu, pesan uji nomor ' || v.id FROM v`,
		f.student, f.school.Class, f.school.T10, n))
}

func dbExec(db *sqlx.DB, q string, args ...any) error {
	_, err := db.Exec(q, args...)
	return err
}

// The crash tests run a child process (this test binary again, running
// TestHelperProcess) and SIGKILL it.

const helperEnv = "TATIB_OUTBOX_HELPER"

// TestHelperProcess is the child: "commit" records a violation (its
// message queued) and commits, then waits to be killed; "send" runs a
// worker. It does nothing in a normal run.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("the crash tests' child process")
	}
	db, err := sqlx.Open("postgres", os.Getenv("TATIB_OUTBOX_DB"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	switch mode {
	case "commit":
		student, _ := strconv.ParseInt(os.Getenv("TATIB_OUTBOX_STUDENT"), 10, 64)
		typeID, _ := strconv.ParseInt(os.Getenv("TATIB_OUTBOX_TYPE"), 10, 64)
		err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
			_, err := violation.RecordTx(ctx, tx, violation.Record{StudentID: student, OccurredAt: time.Now().Add(-time.Hour),
				Source: api.SourceManual, Items: []violation.Item{{TypeID: typeID}}}, audit.Actor{Name: "anak"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("committed")
	case "send":
		fmt.Println("sending")
		_, _ = (&worker.Worker{DB: db, Concurrency: 1}).RunOnce(ctx)
	case "answered":
		// killed after the gateway answered, before the answer is recorded
		_, _ = (&worker.Worker{DB: db, Concurrency: 1, AfterAnswer: func() {
			fmt.Println("answered")
			time.Sleep(time.Minute)
		}}).RunOnce(ctx)
	}
	time.Sleep(time.Minute) // killed before this ends
	os.Exit(3)
}

// child starts the helper in mode and returns it after it printed its
// first line.
func child(t *testing.T, mode, dbURL string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "TATIB_OUTBOX_DB="+dbURL)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	outboxtest.Must(t, err)
	cmd.Stderr = os.Stderr
	outboxtest.Must(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("child %s: %v", mode, err)
	}
	_ = line
	return cmd
}

func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	outboxtest.Must(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
}

func TestOutboxSurvivesAKillBetweenCommitAndSend(t *testing.T) {
	url := pgtest.NewURL(t)
	db, err := sqlx.Open("postgres", url)
	outboxtest.Must(t, err)
	t.Cleanup(func() { db.Close() })
	f := newFixture(t, db, nil)
	cmd := child(t, "commit", url, "TATIB_OUTBOX_STUDENT="+strconv.FormatInt(f.student, 10),
		"TATIB_OUTBOX_TYPE="+strconv.FormatInt(f.school.T10, 10))
	kill(t, cmd)
	if m := one(t, db); m.Status != api.ParentMessageQueued {
		t.Fatalf("after the kill: %+v", m)
	}
	// a fresh worker (the restarted server) sends it, once
	w := &worker.Worker{DB: db, Concurrency: 2}
	if n := runOnce(t, w); n != 1 {
		t.Fatalf("sent %d", n)
	}
	if n := runOnce(t, w); n != 0 {
		t.Fatalf("sent %d more", n)
	}
	if m := one(t, db); m.Status != api.ParentMessageSent || len(f.sim.Messages()) != 1 || f.sim.Requests() != 1 {
		t.Fatalf("message %+v; simulator %d", m, len(f.sim.Messages()))
	}
}

func TestAKillDuringASendLeavesTheMessageQueued(t *testing.T) {
	url := pgtest.NewURL(t)
	db, err := sqlx.Open("postgres", url)
	outboxtest.Must(t, err)
	t.Cleanup(func() { db.Close() })
	f := newFixture(t, db, nil)
	f.record(t)
	// the gateway takes the message and answers late: the child dies
	// while it waits, holding the row's lock
	outboxtest.Must(t, f.sim.SetMode(wasim.Mode{Mode: wasim.ModeSlow, DelayMS: 30000}))
	cmd := child(t, "send", url)
	deadline := time.Now().Add(20 * time.Second)
	for f.sim.Requests() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the child never sent")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// while the child holds it, nobody else takes it
	if n := runOnce(t, &worker.Worker{DB: db, Concurrency: 1}); n != 0 {
		t.Fatalf("a locked message was sent again: %d", n)
	}
	kill(t, cmd)
	f.sim.Reset()
	// the gateway never answered, so no id was written: once the claim's
	// lease has passed (shortened here) the message is sent again
	w := &worker.Worker{DB: db, Concurrency: 1, SendLease: time.Second}
	sent := 0
	for deadline := time.Now().Add(20 * time.Second); sent == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		sent = runOnce(t, w)
	}
	m := one(t, db)
	if sent != 1 || m.Status != api.ParentMessageSent || m.Attempts != 1 {
		t.Fatalf("after restart: sent %d, %+v", sent, m)
	}
	// the killed attempt left no trace but the gateway's copy: the
	// documented possible duplicate
	if a := attempts(t, db); len(a) != 1 || len(f.sim.Messages()) != 1 {
		t.Fatalf("attempts %+v; simulator after reset %d", a, len(f.sim.Messages()))
	}
}

func TestRunWakesOnCommitAndStops(t *testing.T) {
	url := pgtest.NewURL(t)
	db, err := sqlx.Open("postgres", url)
	outboxtest.Must(t, err)
	t.Cleanup(func() { db.Close() })
	f := newFixture(t, db, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	// Poll an hour: only the NOTIFY of the commit can wake it in time.
	l := listen.New(url, nil)
	go l.Run(ctx)
	w := &worker.Worker{DB: db, Listener: l, Concurrency: 2, Poll: time.Hour}
	go func() { w.Run(ctx); close(done) }()
	time.Sleep(300 * time.Millisecond) // the first look and the LISTEN
	f.record(t)
	deadline := time.Now().Add(10 * time.Second)
	for one(t, db).Status != api.ParentMessageSent {
		if time.Now().After(deadline) {
			t.Fatal("not sent after the commit's NOTIFY")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
	if len(f.sim.Messages()) != 1 {
		t.Fatalf("simulator: %d", len(f.sim.Messages()))
	}
}

func TestUndoneCauseIsNotSent(t *testing.T) {
	f := newFixture(t, nil, func(s *parentmsg.Settings) {
		// held until tomorrow morning: time enough to undo the recording
		s.QuietHours = &api.QuietHours{From: "00:00", To: "23:59"}
	})
	id := f.record(t)
	kept := f.school.Student(t, "Citra", "Bu Citra", "081311112222")
	f.school.Record(t, kept, time.Now().Add(-time.Hour), false, f.school.T10)
	// the first violation is deleted (its message's violation_id is set null)
	outboxtest.Must(t, dbExec(f.db, `DELETE FROM point_audit WHERE violation_id = $1`, id))
	outboxtest.Must(t, dbExec(f.db, `DELETE FROM violations WHERE id = $1`, id))
	outboxtest.Configure(t, f.db, f.base, nil)
	f.clock.Set(time.Now().Add(24 * time.Hour))
	if n := runOnce(t, f.worker()); n != 2 {
		t.Fatalf("handled %d", n)
	}
	msgs := outboxtest.Messages(t, f.db)
	if msgs[0].Status != api.ParentMessageCancelled || msgs[1].Status != api.ParentMessageSent || len(f.sim.Messages()) != 1 {
		t.Fatalf("messages %+v; simulator %d", msgs, len(f.sim.Messages()))
	}
}

// Probe finding of issue 25: kill -9 during a send duplicated the message.
// The gateway's id is written the moment it answers; a process killed
// after that leaves the message in flight, and the next worker records it
// as sent without sending it again.
func TestAKillAfterTheGatewayAnsweredSendsNothingTwice(t *testing.T) {
	url := pgtest.NewURL(t)
	db, err := sqlx.Open("postgres", url)
	outboxtest.Must(t, err)
	t.Cleanup(func() { db.Close() })
	f := newFixture(t, db, nil)
	f.record(t)
	cmd := child(t, "answered", url)
	kill(t, cmd)
	if len(f.sim.Messages()) != 1 {
		t.Fatalf("the gateway has %d messages", len(f.sim.Messages()))
	}
	if m := one(t, db); m.Status != api.ParentMessageQueued {
		t.Fatalf("after the kill: %+v", m)
	}
	w := &worker.Worker{DB: db, Concurrency: 1, SendLease: time.Second}
	recovered := 0
	for deadline := time.Now().Add(20 * time.Second); recovered == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		recovered = runOnce(t, w)
	}
	m := one(t, db)
	if recovered != 1 || m.Status != api.ParentMessageSent || m.Attempts != 1 {
		t.Fatalf("after restart: %d, %+v", recovered, m)
	}
	if len(f.sim.Messages()) != 1 || f.sim.Requests() != 1 {
		t.Fatalf("sent twice: simulator has %d messages, %d requests", len(f.sim.Messages()), f.sim.Requests())
	}
}
