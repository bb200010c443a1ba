package parentmsg_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/handling"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/parentmsg/worker/outboxtest"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// enqEveryPlaceholder is a template naming every placeholder, so a test
// sees each value.
const enqEveryPlaceholder = "siswa={nama_siswa} nis={nis} nisn={nisn} kelas={kelas} ortu={nama_orang_tua} " +
	"jenis={jenis_pelanggaran} poin={poin} total={total_poin} sp={level_sp} tgl={tanggal} " +
	"panggil={tanggal_panggilan} sekolah={nama_sekolah}"

// enqAt is 3 November 2026, 10:00 in Jakarta (03:00 UTC).
var enqAt = time.Date(2026, 11, 3, 3, 0, 0, 0, time.UTC)

func enqSchool(t *testing.T, change func(*parentmsg.Settings)) (*outboxtest.School, *sqlx.DB) {
	t.Helper()
	db := pgtest.New(t)
	s := outboxtest.New(t, db)
	outboxtest.Configure(t, db, "http://127.0.0.1:9", func(set *parentmsg.Settings) {
		set.Events.Violation.Template = enqEveryPlaceholder
		set.Events.WarningLetter.Template = enqEveryPlaceholder
		set.Events.Summons.Template = enqEveryPlaceholder
		if change != nil {
			change(set)
		}
	})
	return s, db
}

// enqField is one "name=value" of a body rendered from enqEveryPlaceholder.
func enqField(t *testing.T, body, name string) string {
	t.Helper()
	i := strings.Index(body, name+"=")
	if i < 0 {
		t.Fatalf("no %s in %q", name, body)
	}
	rest := body[i+len(name)+1:]
	// values may hold spaces: up to the next " key="
	for _, k := range []string{" nis=", " nisn=", " kelas=", " ortu=", " jenis=", " poin=", " total=", " sp=", " tgl=", " panggil=", " sekolah="} {
		if j := strings.Index(rest, k); j >= 0 {
			rest = rest[:j]
		}
	}
	return rest
}

// enqOf keeps the messages of event.
func enqOf(msgs []outboxtest.Message, event string) []outboxtest.Message {
	var out []outboxtest.Message
	for _, m := range msgs {
		if m.Event == event {
			out = append(out, m)
		}
	}
	return out
}

func TestViolationQueuesTheParentsMessage(t *testing.T) {
	s, db := enqSchool(t, nil)
	st := s.Student(t, "Budi Santoso", "Pak Santoso", "0812-3456-7890")
	res := s.Record(t, st, enqAt, false, s.T40)
	msgs := outboxtest.Messages(t, db)
	if len(msgs) != 1 {
		t.Fatalf("messages: %+v", msgs)
	}
	m := msgs[0]
	if m.Event != api.ParentEventViolation || m.ViolationID == nil || *m.ViolationID != res.ViolationIDs[0] || m.StudentID != st {
		t.Fatalf("message: %+v", m)
	}
	if m.Status != api.ParentMessageQueued || m.Phone != "6281234567890" || m.PhoneRaw != "0812-3456-7890" || m.ParentName != "Pak Santoso" {
		t.Fatalf("message: %+v", m)
	}
	if m.CreatedBy == nil || *m.CreatedBy != s.Actor.ID {
		t.Fatalf("created_by %v", m.CreatedBy)
	}
	want := map[string]string{"siswa": "Budi Santoso", "kelas": "XI TKJ 2", "ortu": "Pak Santoso", "jenis": "Membolos",
		"poin": "40", "total": "40", "sp": "", "tgl": "3 November 2026", "sekolah": outboxtest.SchoolName}
	for k, v := range want {
		if got := enqField(t, m.Body, k); got != v {
			t.Errorf("%s = %q, want %q (body %q)", k, got, v, m.Body)
		}
	}
	if enqField(t, m.Body, "nis") == "" || enqField(t, m.Body, "nisn") == "" {
		t.Errorf("nis/nisn empty: %q", m.Body)
	}
	if time.Since(m.NextAttemptAt) < 0 || time.Since(m.NextAttemptAt) > time.Minute {
		t.Errorf("next_attempt_at %v: want now", m.NextAttemptAt)
	}

	// total_poin is the year's total after each violation.
	s.Record(t, st, enqAt.Add(time.Hour), false, s.T10)
	msgs = enqOf(outboxtest.Messages(t, db), api.ParentEventViolation)
	if len(msgs) != 2 || enqField(t, msgs[1].Body, "total") != "50" || enqField(t, msgs[1].Body, "poin") != "10" {
		t.Fatalf("second: %+v", msgs)
	}
}

func TestRolledBackViolationQueuesNothing(t *testing.T) {
	s, db := enqSchool(t, nil)
	st := s.Student(t, "Budi", "Pak Budi", "081234567890")
	s.Record(t, st, enqAt, true, s.T60)
	var n int
	outboxtest.Must(t, db.Get(&n, `SELECT count(*) FROM parent_messages`))
	if n != 0 {
		t.Fatalf("%d messages after a rolled-back violation", n)
	}
}

func TestStudentWithoutUsablePhoneIsSkipped(t *testing.T) {
	s, db := enqSchool(t, nil)
	none := s.Student(t, "Tanpa Nomor", "", "")
	landline := s.Student(t, "Telepon Rumah", "Bu Rumah", "021-555-1234")
	junk := s.Student(t, "Nomor Asal", "Pak Asal", "tidak ada")
	for _, st := range []int64{none, landline, junk} {
		s.Record(t, st, enqAt, false, s.T10)
	}
	msgs := outboxtest.Messages(t, db)
	if len(msgs) != 3 {
		t.Fatalf("messages: %+v", msgs)
	}
	want := []string{parentmsg.SkipNoPhone, parentmsg.SkipInvalidPhone, parentmsg.SkipInvalidPhone}
	for i, m := range msgs {
		if m.Status != api.ParentMessageSkipped || m.SkipReason != want[i] || m.Phone != "" || m.Body == "" {
			t.Errorf("message %d: %+v, want skipped %s", i, m, want[i])
		}
	}
}

func TestMinPointsAndSwitches(t *testing.T) {
	t.Run("MinPoints", func(t *testing.T) {
		s, db := enqSchool(t, func(set *parentmsg.Settings) { set.Events.Violation.MinPoints = 40 })
		st := s.Student(t, "Budi", "Pak Budi", "081234567890")
		s.Record(t, st, enqAt, false, s.T10, s.T40)
		msgs := enqOf(outboxtest.Messages(t, db), api.ParentEventViolation)
		if len(msgs) != 1 || enqField(t, msgs[0].Body, "poin") != "40" {
			t.Fatalf("messages: %+v", msgs)
		}
	})
	t.Run("EventOff", func(t *testing.T) {
		s, db := enqSchool(t, func(set *parentmsg.Settings) { set.Events.Violation.Enabled = false })
		st := s.Student(t, "Budi", "Pak Budi", "081234567890")
		s.Record(t, st, enqAt, false, s.T10)
		if msgs := outboxtest.Messages(t, db); len(msgs) != 0 {
			t.Fatalf("messages: %+v", msgs)
		}
	})
	t.Run("NoGateway", func(t *testing.T) {
		s, db := enqSchool(t, func(set *parentmsg.Settings) { set.Gateway = parentmsg.Gateway{} })
		st := s.Student(t, "Budi", "Pak Budi", "081234567890")
		s.Record(t, st, enqAt, false, s.T60, s.T60)
		if msgs := outboxtest.Messages(t, db); len(msgs) != 0 {
			t.Fatalf("messages: %+v", msgs)
		}
	})
}

// TestLetterMessageOnlyWhenSent: a rule drafting or raising a letter
// queues nothing for the parent; sending it queues its message once per
// letter and level; a letter withdrawn after its message went out sends one
// correction.
func TestLetterMessageOnlyWhenSent(t *testing.T) {
	s, db := enqSchool(t, nil)
	ctx := context.Background()
	st := s.Student(t, "Citra Lestari", "Ibu Lestari", "+62 813 1111 2222")
	first := s.Record(t, st, enqAt, false, s.T40)
	res := s.Record(t, st, enqAt.Add(time.Hour), false, s.T60) // 100 points: one letter covering SP 1–2
	if len(res.Letters) != 1 {
		t.Fatalf("letters: %+v", res.Letters)
	}
	if msgs := enqOf(outboxtest.Messages(t, db), api.ParentEventWarningLetter); len(msgs) != 0 {
		t.Fatalf("a rule's letter queued %+v", msgs)
	}
	store := letter.NewStore(db)
	id := res.Letters[0].ID
	if _, err := store.Send(ctx, letter.Scope{}, s.Actor, id); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Send(ctx, letter.Scope{}, s.Actor, id); apperr.Code(err) != apperr.Conflict {
		t.Fatalf("second send: %v", err)
	}
	msgs := enqOf(outboxtest.Messages(t, db), api.ParentEventWarningLetter)
	today := parentmsg.LongDay(schoolday.Today())
	if len(msgs) != 1 || msgs[0].LetterID == nil || *msgs[0].LetterID != id || msgs[0].LetterLevel == nil || *msgs[0].LetterLevel != 2 ||
		msgs[0].Phone != "6281311112222" || msgs[0].Correction {
		t.Fatalf("letter messages: %+v", msgs)
	}
	if enqField(t, msgs[0].Body, "sp") != "SP 1–2" || enqField(t, msgs[0].Body, "total") != "100" || enqField(t, msgs[0].Body, "tgl") != today {
		t.Errorf("letter body %q", msgs[0].Body)
	}
	// The message went out; the points fall below SP 1: the letter is
	// withdrawn and the parent gets one correction, whatever follows.
	outboxtest.Must(t, db.Get(new(int), `UPDATE parent_messages SET status = 'sent', sent_at = now() WHERE id = $1 RETURNING 1`, msgs[0].ID))
	vs := violation.NewStore(db)
	for _, v := range append(first.ViolationIDs, res.ViolationIDs...) {
		outboxtest.Must(t, vs.Delete(ctx, violation.Scope{}, s.Actor, v))
	}
	s.Record(t, st, enqAt.Add(2*time.Hour), false, s.T10)
	msgs = enqOf(outboxtest.Messages(t, db), api.ParentEventWarningLetter)
	if len(msgs) != 2 || !msgs[1].Correction || msgs[1].Status != api.ParentMessageQueued || *msgs[1].LetterID != id {
		t.Fatalf("after the withdrawal: %+v", msgs)
	}
	if !strings.Contains(msgs[1].Body, "dibatalkan") || !strings.Contains(msgs[1].Body, "SP 1 untuk") /* lowered to SP 1 before the last deletion */ || !strings.Contains(msgs[1].Body, "Citra Lestari") {
		t.Errorf("correction body %q", msgs[1].Body)
	}
}

// TestCorrectionOnlyAfterSent: a letter withdrawn while its message still
// waits sends nothing (the worker cancels the waiting one).
func TestCorrectionOnlyAfterSent(t *testing.T) {
	s, db := enqSchool(t, nil)
	ctx := context.Background()
	st := s.Student(t, "Dian", "Pak Dian", "081211112222")
	res := s.Record(t, st, enqAt, false, s.T60)
	if _, err := letter.NewStore(db).Send(ctx, letter.Scope{}, s.Actor, res.Letters[0].ID); err != nil {
		t.Fatal(err)
	}
	outboxtest.Must(t, violation.NewStore(db).Delete(ctx, violation.Scope{}, s.Actor, res.ViolationIDs[0]))
	msgs := enqOf(outboxtest.Messages(t, db), api.ParentEventWarningLetter)
	if len(msgs) != 1 || msgs[0].Correction {
		t.Fatalf("messages: %+v", msgs)
	}
}

func TestSummonsQueuesItsMessage(t *testing.T) {
	s, db := enqSchool(t, nil)
	st := s.Student(t, "Dodi", "Pak Dodi", "081299998888")
	res := s.Record(t, st, enqAt, false, s.T10)
	store := handling.NewStore(db)
	ctx := context.Background()
	follow := "2026-11-10"
	// a handling of a type that does not summon queues nothing
	if _, err := store.Create(ctx, s.Actor, violation.Scope{}, res.ViolationIDs[0],
		api.CreateHandlingRequest{HandlingTypeID: s.Reprimand, HandledOn: "2026-11-04"}); err != nil {
		t.Fatal(err)
	}
	h, err := store.Create(ctx, s.Actor, violation.Scope{}, res.ViolationIDs[0],
		api.CreateHandlingRequest{HandlingTypeID: s.Summons, HandledOn: "2026-11-05", FollowUpOn: &follow})
	if err != nil {
		t.Fatal(err)
	}
	msgs := outboxtest.Messages(t, db)
	if len(msgs) != 2 || msgs[1].Event != api.ParentEventSummons || msgs[1].HandlingID == nil || *msgs[1].HandlingID != h.ID {
		t.Fatalf("messages: %+v", msgs)
	}
	b := msgs[1].Body
	if enqField(t, b, "panggil") != "10 November 2026" || enqField(t, b, "tgl") != "5 November 2026" || enqField(t, b, "jenis") != "Terlambat masuk kelas" {
		t.Fatalf("summons body %q", b)
	}
}

func TestAutomaticViolationsQueueOnlyWhenIncluded(t *testing.T) {
	for _, include := range []bool{false, true} {
		t.Run(map[bool]string{false: "Excluded", true: "Included"}[include], func(t *testing.T) {
			s, db := enqSchool(t, func(set *parentmsg.Settings) { set.Events.Violation.IncludeAutomatic = include })
			st := s.Student(t, "Eka", "Bu Eka", "081277776666")
			ctx := context.Background()
			var entries []attendance.Entry
			for h := 1; h <= 10; h++ {
				entries = append(entries, attendance.Entry{StudentID: st, Date: "2026-11-03", LessonHour: h, Status: "A"})
			}
			err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
				_, err := attendance.ApplyTx(ctx, tx, entries, attendance.Origin{UserID: s.Actor.ID, Actor: s.Actor})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			var autos int
			outboxtest.Must(t, db.Get(&autos, `SELECT count(*) FROM violations WHERE auto_kind IS NOT NULL`))
			if autos == 0 {
				t.Fatal("no automatic violation")
			}
			msgs := outboxtest.Messages(t, db)
			var violations int
			for _, m := range msgs {
				if m.Event == api.ParentEventViolation {
					violations++
					if m.CreatedBy != nil || enqField(t, m.Body, "tgl") != "3 November 2026" {
						t.Errorf("automatic message: %+v", m)
					}
				}
			}
			if want := map[bool]int{false: 0, true: autos}[include]; violations != want {
				t.Fatalf("%d violation messages, want %d: %+v", violations, want, msgs)
			}
		})
	}
}

func TestQuietHoursHoldTheMessageUntilTheyEnd(t *testing.T) {
	// Quiet hours from an hour ago to an hour from now (Jakarta), across
	// midnight when now is late.
	now := time.Now().In(apiJakarta)
	from, to := now.Add(-time.Hour).Format("15:04"), now.Add(time.Hour).Format("15:04")
	s, db := enqSchool(t, func(set *parentmsg.Settings) { set.QuietHours = &api.QuietHours{From: from, To: to} })
	st := s.Student(t, "Fajar", "Pak Fajar", "081255554444")
	s.Record(t, st, enqAt, false, s.T10)
	msgs := outboxtest.Messages(t, db)
	if len(msgs) != 1 {
		t.Fatalf("messages: %+v", msgs)
	}
	want := now.Add(time.Hour).Truncate(time.Minute)
	if got := msgs[0].NextAttemptAt.In(apiJakarta); !got.Equal(want) {
		t.Fatalf("next_attempt_at %v, want %v", got, want)
	}
}

func TestQuietUntil(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 11, 3, h, m, 0, 0, apiJakarta) }
	night := &api.QuietHours{From: "21:00", To: "06:00"}
	noon := &api.QuietHours{From: "12:00", To: "13:00"}
	for _, c := range []struct {
		name  string
		q     *api.QuietHours
		t     time.Time
		until time.Time
		quiet bool
	}{
		{"BeforeMidnight", night, at(22, 30), time.Date(2026, 11, 4, 6, 0, 0, 0, apiJakarta), true},
		{"AfterMidnight", night, at(2, 0), at(6, 0), true},
		{"AtStart", night, at(21, 0), time.Date(2026, 11, 4, 6, 0, 0, 0, apiJakarta), true},
		{"AtEnd", night, at(6, 0), time.Time{}, false},
		{"Day", night, at(10, 0), time.Time{}, false},
		{"SameDay", noon, at(12, 15), at(13, 0), true},
		{"SameDayOutside", noon, at(13, 15), time.Time{}, false},
		{"None", nil, at(22, 0), time.Time{}, false},
		{"Equal", &api.QuietHours{From: "10:00", To: "10:00"}, at(10, 0), time.Time{}, false},
		// the host's zone does not matter: 15:30 UTC is 22:30 in Jakarta
		{"UTCInput", night, time.Date(2026, 11, 3, 15, 30, 0, 0, time.UTC), time.Date(2026, 11, 4, 6, 0, 0, 0, apiJakarta), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			until, quiet := parentmsg.QuietUntil(c.q, c.t)
			if quiet != c.quiet || !until.Equal(c.until) {
				t.Fatalf("QuietUntil = %v, %v; want %v, %v", until, quiet, c.until, c.quiet)
			}
		})
	}
}

// TestLongDate: the day a message names, from a date column (its calendar
// date) and from an instant (its day in Jakarta).
func TestLongDate(t *testing.T) {
	for _, c := range []struct {
		d    schoolday.Date
		want string
	}{
		{schoolday.DateFromDay(time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)), "3 November 2026"}, // a date column
		{schoolday.DateOf(time.Date(2026, 11, 3, 18, 0, 0, 0, time.UTC)), "4 November 2026"},     // 01:00 in Jakarta
		{schoolday.DateOf(time.Date(2026, 1, 31, 10, 0, 0, 0, apiJakarta)), "31 Januari 2026"},   // a Jakarta time
	} {
		if got := parentmsg.LongDay(c.d); got != c.want {
			t.Errorf("LongDay(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestAttendanceDayMessage: an attendance day's automatic violations give
// at most one message per student and day, due the settle time after the
// day's last change, re-rendered by each change, none for a day that ends
// with nothing to report, and nothing more once it went out.
func TestAttendanceDayMessage(t *testing.T) {
	s, db := enqSchool(t, func(set *parentmsg.Settings) {
		set.Events.Violation.IncludeAutomatic = true
		set.Events.Violation.SettleMinutes = 5
	})
	st := s.Student(t, "Eka", "Bu Eka", "081277776666")
	ctx := context.Background()
	save := func(date string, statuses ...string) {
		t.Helper()
		var entries []attendance.Entry
		for h, status := range statuses {
			entries = append(entries, attendance.Entry{StudentID: st, Date: date, LessonHour: h + 1, Status: status})
		}
		outboxtest.Must(t, pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
			_, err := attendance.ApplyTx(ctx, tx, entries, attendance.Origin{UserID: s.Actor.ID, Actor: s.Actor})
			return err
		}))
	}
	day := func() []outboxtest.Message { return enqOf(outboxtest.Messages(t, db), api.ParentEventViolation) }

	start := time.Now()
	save("2026-11-03", "A", "A", "A", "H")
	msgs := day()
	if len(msgs) != 1 || msgs[0].AttendanceDate == nil || *msgs[0].AttendanceDate != "2026-11-03" || msgs[0].ViolationID != nil ||
		msgs[0].Status != api.ParentMessageQueued || !strings.Contains(enqField(t, msgs[0].Body, "jenis"), "3 jam") ||
		enqField(t, msgs[0].Body, "poin") != "5" {
		t.Fatalf("first change: %+v", msgs)
	}
	if due := msgs[0].NextAttemptAt; due.Before(start.Add(5*time.Minute-time.Second)) || due.After(time.Now().Add(5*time.Minute)) {
		t.Fatalf("due %v, want 5 minutes after the change", due)
	}
	// A later change of the same day: the same message, re-rendered.
	save("2026-11-03", "A", "A", "A", "T")
	msgs = day()
	if len(msgs) != 1 || !strings.Contains(enqField(t, msgs[0].Body, "jenis"), "Terlambat") || enqField(t, msgs[0].Body, "poin") != "7" {
		t.Fatalf("second change: %+v", msgs)
	}
	// The day ends with nothing to report: no message.
	save("2026-11-03", "H", "H", "H", "H")
	if msgs = day(); len(msgs) != 0 {
		t.Fatalf("nothing to report: %+v", msgs)
	}
	// Once it went out, the day has had its message.
	save("2026-11-03", "A")
	msgs = day()
	outboxtest.Must(t, db.Get(new(int), `UPDATE parent_messages SET status = 'sent', sent_at = now(), attempts = 1 WHERE id = $1 RETURNING 1`, msgs[0].ID))
	save("2026-11-03", "A", "A")
	save("2026-11-04", "A")
	msgs = day()
	if len(msgs) != 2 || msgs[0].Status != api.ParentMessageSent || enqField(t, msgs[0].Body, "poin") != "2" ||
		*msgs[1].AttendanceDate != "2026-11-04" {
		t.Fatalf("after it went out: %+v", msgs)
	}
}

func TestLongDay(t *testing.T) {
	for day, want := range map[string]string{"2026-11-03": "3 November 2026", "2027-01-31": "31 Januari 2027", "2028-02-29": "29 Februari 2028"} {
		if got := parentmsg.LongDay(schoolday.MustParseDate(day)); got != want {
			t.Errorf("LongDay(%s) = %q, want %q", day, got, want)
		}
	}
}
