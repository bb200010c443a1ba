// Package outboxtest builds the small school the outbox and worker tests
// queue parent messages from: a class, violation types, the SP thresholds,
// handling types (one summoning the parent) and students with parents'
// phones, and the messaging settings pointed at a gateway.
package outboxtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// School is the fixture.
type School struct {
	DB                 *sqlx.DB
	Class              int64
	T10, T40, T60      int64 // violation types by points
	Summons, Reprimand int64 // handling types: summoning the parent, not
	Actor              audit.Actor
	seq                atomic.Int64
}

// SchoolName is the profile's name, as {nama_sekolah} renders it.
const SchoolName = "SMK Negeri 1 Contoh"

// New builds the school on db (a fresh migrated database).
func New(t testing.TB, db *sqlx.DB) *School {
	t.Helper()
	ctx := context.Background()
	d := app.Deps{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	Must(t, violationtype.Boot(ctx, d))
	s := &School{DB: db}
	Must(t, db.Get(&s.Actor.ID, `INSERT INTO users (username, name, password_hash, role) VALUES ('guru.bk', 'Bu Guru BK', 'x', 'bk') RETURNING id`))
	s.Actor.Name = "Bu Guru BK"
	var dept int64
	Must(t, db.Get(&dept, `INSERT INTO departments (code, name) VALUES ('TKJ', 'Teknik Komputer') RETURNING id`))
	Must(t, db.Get(&s.Class, `INSERT INTO classes (name, grade, department_id) VALUES ('XI TKJ 2', 11, $1) RETURNING id`, dept))
	for _, x := range []struct {
		id     *int64
		points int
		name   string
	}{{&s.T10, 10, "Terlambat masuk kelas"}, {&s.T40, 40, "Membolos"}, {&s.T60, 60, "Berkelahi"}} {
		Must(t, db.Get(x.id, `INSERT INTO violation_types (name, slug, points, category_id, default_sanction)
			VALUES ($1, $2, $3, (SELECT id FROM violation_categories ORDER BY id LIMIT 1), 'Teguran') RETURNING id`,
			x.name, fmt.Sprintf("uji-%d", x.points), x.points))
	}
	Must(t, db.Get(&s.Summons, `INSERT INTO handling_types (name, summons_parent) VALUES ('Undangan Orang Tua (uji)', true) RETURNING id`))
	Must(t, db.Get(&s.Reprimand, `INSERT INTO handling_types (name, summons_parent) VALUES ('Teguran (uji)', false) RETURNING id`))
	profile, _ := json.Marshal(map[string]any{"name": SchoolName, "academic_year_start": "07-01", "lesson_hours_per_day": 10})
	Must(t, exec(db, `INSERT INTO settings (key, value) VALUES ('school', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, string(profile)))
	return s
}

// Student adds a student of the class with a parent and their phone as
// student affairs typed it.
func (s *School) Student(t testing.TB, name, parent, phone string) int64 {
	t.Helper()
	n := s.seq.Add(1)
	var id int64
	Must(t, s.DB.Get(&id, `INSERT INTO students (source_id, nisn, nis, full_name, class_id, parent_name, parent_phone)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		9000+n, fmt.Sprintf("00%08d", 9000+n), fmt.Sprintf("2%04d", n), name, s.Class, parent, phone))
	return id
}

// Configure saves messaging settings with the gateway at baseURL (fonnte
// unless change says otherwise), every event on with the default
// templates and no quiet hours; change edits them first.
func Configure(t testing.TB, db *sqlx.DB, baseURL string, change func(*parentmsg.Settings)) {
	t.Helper()
	set := parentmsg.Defaults()
	set.Gateway = parentmsg.Gateway{Kind: api.GatewayFonnte, BaseURL: baseURL, Token: "rahasia-token", TimeoutSeconds: 5}
	set.QuietHours = nil
	if change != nil {
		change(&set)
	}
	b, err := json.Marshal(set)
	Must(t, err)
	Must(t, exec(db, `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
		parentmsg.SettingsKey, string(b)))
}

// Record records a manual violation of the types through violation.RecordTx
// at at, and commits (or rolls back when rollback is set).
func (s *School) Record(t testing.TB, student int64, at time.Time, rollback bool, types ...int64) violation.Result {
	t.Helper()
	ctx := context.Background()
	in := violation.Record{StudentID: student, OccurredAt: at, Location: "Kelas", Source: api.SourceManual,
		RecordedBy: &s.Actor.ID, RecordedByName: s.Actor.Name}
	for _, ty := range types {
		in.Items = append(in.Items, violation.Item{TypeID: ty})
	}
	var res violation.Result
	errRollback := fmt.Errorf("outboxtest: roll back")
	err := pg.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		var err error
		if res, err = violation.RecordTx(ctx, tx, in, s.Actor); err != nil {
			return err
		}
		if rollback {
			return errRollback
		}
		return nil
	})
	if err != nil && !(rollback && err == errRollback) {
		t.Fatalf("record: %v", err)
	}
	return res
}

// Message is a queued message as the tests read it.
type Message struct {
	ID            int64      `db:"id"`
	StudentID     int64      `db:"student_id"`
	Event         string     `db:"event"`
	ViolationID   *int64     `db:"violation_id"`
	LetterID      *int64     `db:"letter_id"`
	HandlingID    *int64     `db:"handling_id"`
	ParentName    string     `db:"parent_name"`
	PhoneRaw      string     `db:"phone_raw"`
	Phone         string     `db:"phone"`
	Body          string     `db:"body"`
	Status        string     `db:"status"`
	SkipReason    string     `db:"skip_reason"`
	Attempts      int        `db:"attempts"`
	NextAttemptAt time.Time  `db:"next_attempt_at"`
	GatewayID     string     `db:"gateway_message_id"`
	LastOutcome   string     `db:"last_outcome"`
	CreatedBy     *int64     `db:"created_by"`
	SentAt        *time.Time `db:"sent_at"`
	// LetterLevel: a letter's message is once per letter and level;
	// Correction: the one message after a sent letter was withdrawn;
	// AttendanceDate: an attendance day's message (YYYY-MM-DD).
	LetterLevel    *int    `db:"letter_level"`
	Correction     bool    `db:"correction"`
	AttendanceDate *string `db:"attendance_date"`
}

// Messages returns every message, in id order.
func Messages(t testing.TB, db *sqlx.DB) []Message {
	t.Helper()
	var out []Message
	Must(t, db.Select(&out, `SELECT id, student_id, event, violation_id, letter_id, handling_id, parent_name, phone_raw, phone,
		body, status, skip_reason, attempts, next_attempt_at, gateway_message_id, last_outcome, created_by, sent_at,
		letter_level, correction, to_char(attendance_date, 'YYYY-MM-DD') AS attendance_date
		FROM parent_messages ORDER BY id`))
	return out
}

// Must fails t on err.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func exec(db *sqlx.DB, q string, args ...any) error {
	_, err := db.Exec(q, args...)
	return err
}
