package main

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/sim/wa"
)

// TestShutdownRecordsSendInFlight stops the real server (SIGTERM, as
// systemd does) while a parent message is with a slow gateway: the server
// waits for the answer and records it before it exits, so the message is
// not sent again after the restart.
func TestShutdownRecordsSendInFlight(t *testing.T) {
	t.Parallel()
	bin := serverBin(t)
	sim := wasim.New(wasim.Fonnte)
	sim.Token = "tok-shutdown"
	base := sim.Start()
	t.Cleanup(sim.Close)
	if err := sim.SetMode(wasim.Mode{Mode: wasim.ModeSlow, DelayMS: 3000}); err != nil {
		t.Fatal(err)
	}

	url := pgtest.NewURL(t)
	addr := freeAddr(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+url, "TATIB_ADDR="+addr, "TATIB_ADMIN_PASSWORD=admin-shutdown-1",
		"TATIB_DEMO=0", "TATIB_DATA_DIR="+t.TempDir(), "TATIB_ALLOW_LOCAL_SOURCES=1", "TATIB_MESSAGING_WORKERS=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	t.Cleanup(func() {
		if !exited {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	waitReady(t, "http://"+addr)
	admin := login(t, "http://"+addr, "admin", "admin-shutdown-1")
	settings := map[string]any{
		"gateway":     map[string]any{"kind": "fonnte", "base_url": base, "token": "tok-shutdown", "timeout_seconds": 10},
		"quiet_hours": nil,
	}
	if status, body := call(t, "PUT", "http://"+addr+"/api/v1/settings/messaging", admin, settings); status != 200 {
		t.Fatalf("settings: %d %s", status, body)
	}

	db, err := sqlx.Open("postgres", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id int64
	if err := db.Get(&id, `WITH c AS (INSERT INTO classes (name, grade) VALUES ('X TKJ 1', 10) RETURNING id),
		s AS (INSERT INTO students (source_id, full_name, class_id, parent_name, parent_phone)
		      SELECT 1, 'Budi Santoso', c.id, 'Ibu Sari', '0812-3456-7890' FROM c RETURNING id, class_id),
		v AS (INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points)
		      SELECT s.id, s.class_id, 'X TKJ 1', (SELECT min(id) FROM violation_types), now(), current_date, 5 FROM s RETURNING id, student_id)
		INSERT INTO parent_messages (student_id, event, violation_id, phone, body)
		SELECT v.student_id, 'violation', v.id, '6281234567890', 'Pesan uji penghentian server' FROM v RETURNING id`); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`SELECT pg_notify('tatib_parent_messages', '')`)

	// The gateway has the message and answers in 3 s: stop the server now.
	deadline := time.Now().Add(20 * time.Second)
	for sim.Requests() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the worker never sent the message")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("server exit: %v", err)
	}
	exited = true
	var m struct {
		Status   string `db:"status"`
		Attempts int    `db:"attempts"`
	}
	if err := db.Get(&m, `SELECT status, attempts FROM parent_messages WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if m.Status != "sent" || m.Attempts != 1 {
		t.Fatalf("after a stop during the send: status %q, attempts %d; want sent, 1 (recorded before exiting)", m.Status, m.Attempts)
	}
	if n := len(sim.Messages()); n != 1 {
		t.Fatalf("the gateway got %d messages", n)
	}
}
