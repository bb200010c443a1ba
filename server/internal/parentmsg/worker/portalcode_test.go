package worker_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/shared/api"
)

// A portal sign-in code goes out during the quiet hours, which still hold
// every other message; a code older than five minutes is not sent.
func TestPortalCodeThroughQuietHours(t *testing.T) {
	f := newFixture(t, nil, func(s *parentmsg.Settings) { s.QuietHours = &api.QuietHours{From: "00:00", To: "23:59"} })
	f.record(t)
	var g int64
	if err := f.db.Get(&g, `INSERT INTO guardians (name, phone) VALUES ('Pak Santoso', '6281234567890') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	queue := func(t *testing.T, code string) {
		t.Helper()
		err := inTx(f.db, func(tx *sqlx.Tx) error {
			_, err := parentmsg.PortalCodeTx(context.Background(), tx, g, f.student, "Pak Santoso", "6281234567890", code)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	queue(t, "123456")
	if n := runOnce(t, f.worker()); n != 1 || f.sim.Requests() != 1 {
		t.Fatalf("sent %d (%d requests), want the code alone", n, f.sim.Requests())
	}
	var status string
	if err := f.db.Get(&status, `SELECT status FROM parent_messages WHERE event = 'violation'`); err != nil || status != api.ParentMessageQueued {
		t.Fatalf("violation message %q %v, want held", status, err)
	}
	queue(t, "654321")
	if _, err := f.db.Exec(`UPDATE parent_messages SET created_at = now() - interval '6 minutes' WHERE body LIKE '%654321%'`); err != nil {
		t.Fatal(err)
	}
	runOnce(t, f.worker())
	if err := f.db.Get(&status, `SELECT status FROM parent_messages WHERE body LIKE '%654321%'`); err != nil || status != api.ParentMessageCancelled {
		t.Fatalf("stale code %q %v, want cancelled", status, err)
	}
}

func inTx(db *sqlx.DB, fn func(*sqlx.Tx) error) error {
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// A number whose guardian withdrew consent gets nothing but their own
// sign-in codes, whichever path queued the message.
func TestWithdrawnGuardianSkipped(t *testing.T) {
	f := newFixture(t, nil, nil)
	f.record(t)
	if _, err := f.db.Exec(`INSERT INTO guardians (name, phone, withdrawn_at) VALUES ('Pak Santoso', '6281234567890', now())`); err != nil {
		t.Fatal(err)
	}
	runOnce(t, f.worker())
	var status, reason string
	if err := f.db.QueryRow(`SELECT status, skip_reason FROM parent_messages WHERE event = 'violation'`).Scan(&status, &reason); err != nil {
		t.Fatal(err)
	}
	if status != api.ParentMessageSkipped || reason != "consent_withdrawn" || f.sim.Requests() != 0 {
		t.Fatalf("%s %s, %d sent", status, reason, f.sim.Requests())
	}
}

// The guardian's preferences (family portal): a kind in the digest is held
// for it, a kind off is skipped, and a guardian with no choice gets it now.
func TestGuardianPreferences(t *testing.T) {
	f := newFixture(t, nil, nil)
	var g int64
	if err := f.db.Get(&g, `INSERT INTO guardians (name, phone) VALUES ('Pak Santoso', '6281234567890') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	outcome := func(mode string) (string, string) {
		t.Helper()
		if _, err := f.db.Exec(`INSERT INTO guardian_notification_prefs (guardian_id, kind, mode) VALUES ($1, 'violation', $2)
			ON CONFLICT (guardian_id, kind) DO UPDATE SET mode = EXCLUDED.mode`, g, mode); err != nil {
			t.Fatal(err)
		}
		id := f.record(t)
		runOnce(t, f.worker())
		var status, reason string
		if err := f.db.QueryRow(`SELECT status, skip_reason FROM parent_messages WHERE violation_id = $1`, id).Scan(&status, &reason); err != nil {
			t.Fatal(err)
		}
		return status, reason
	}
	if s, r := outcome("digest"); s != api.ParentMessageSkipped || r != "digest" {
		t.Fatalf("digest: %s %s", s, r)
	}
	if s, r := outcome("off"); s != api.ParentMessageSkipped || r != "guardian_off" {
		t.Fatalf("off: %s %s", s, r)
	}
	if f.sim.Requests() != 0 {
		t.Fatalf("%d sent", f.sim.Requests())
	}
	if s, _ := outcome("immediate"); s != api.ParentMessageSent || f.sim.Requests() != 1 {
		t.Fatalf("immediate: %s, %d sent", s, f.sim.Requests())
	}
	if _, err := f.db.Exec(`INSERT INTO guardian_notification_prefs (guardian_id, kind, mode) VALUES ($1, 'warning_letter', 'off')`, g); err == nil {
		t.Fatal("a warning letter turned off")
	}
}
