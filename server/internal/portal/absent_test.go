package portal_test

import (
	"context"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/parentmsg/worker"
	"github.com/tatib/tatib/server/internal/portal"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// "Belum hadir": once per guardian, child and day, after the school's
// time, only to guardians who asked, never for a child marked there, S/I
// or excused, never on a day nobody took the register.
func TestAbsentNotice(t *testing.T) {
	f := newFamily(t, true)
	ctx := context.Background()
	g := f.guardian(t, parentPhone)
	g.Do("PUT", "/api/v1/portal/preferences", api.NotificationPrefsInput{Preferences: map[string]string{"absent_notice": "immediate"}}).Want(200)
	// Classmates: Sari present, Citra excused by her guardian, Dewi S by a
	// person, Eko absent but his guardian never asked.
	const day = "2026-11-25" // a Wednesday
	kids := map[string]int64{}
	for i, name := range []string{"Sari", "Citra", "Dewi", "Eko"} {
		kids[name] = f.school.Student(t, name, "Wali "+name, "0812-7777-000"+itoa(int64(i)))
		var gid int64
		if err := f.env.DB.Get(&gid, `INSERT INTO guardians (name, phone) VALUES ($1, $2) RETURNING id`, "Wali "+name, "62812777700"+itoa(int64(i))); err != nil {
			t.Fatal(err)
		}
		if _, err := f.env.DB.Exec(`INSERT INTO guardian_students (guardian_id, student_id, slot, status, source) VALUES ($1, $2, 1, 'verified', 'staff')`, gid, kids[name]); err != nil {
			t.Fatal(err)
		}
		if name != "Eko" {
			if _, err := f.env.DB.Exec(`INSERT INTO guardian_notification_prefs (guardian_id, kind, mode) VALUES ($1, 'absent_notice', 'immediate')`, gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := f.env.DB.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO excuses (student_id, guardian_name, kind, date_from, date_to, reason) VALUES ($1, 'Wali Citra', 'sakit', $2::date - 1, $2, 'demam')`, kids["Citra"], day)

	midnight := schoolday.MustParseDate(day).Start()
	run := func(at time.Duration) int {
		t.Helper()
		n, err := portal.AbsentNotices(ctx, f.env.DB, midnight.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	morning := 8*time.Hour + 30*time.Minute
	if n := run(morning); n != 0 {
		t.Fatalf("the school never turned it on: %d", n)
	}
	f.env.As(perm.Admin).Do("PUT", "/api/v1/settings/portal", api.PortalSettings{AbsentNotice: true, AbsentNoticeAt: "08:15"}).Want(200)
	if n := run(morning); n != 0 {
		t.Fatalf("no register taken, yet %d", n)
	}
	exec(`INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, set_by) VALUES ($1, $2, 1, 'H', false, 'kiosk')`, kids["Sari"], day)
	exec(`INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, set_by) VALUES ($1, $2, 1, 'S', false, 'user'), ($1, $2, 2, 'A', true, 'journal')`, kids["Dewi"], day)
	if n := run(8 * time.Hour); n != 0 {
		t.Fatalf("before the time: %d", n)
	}
	if n := run(12 * time.Hour); n != 0 {
		t.Fatalf("hours after the time: %d", n)
	}
	if n := run(morning); n != 1 {
		t.Fatalf("%d notices, want Budi's alone", n)
	}
	if n := run(morning + time.Minute); n != 0 {
		t.Fatalf("twice the same day: %d", n)
	}
	if n := f.count(t, `SELECT count(*) FROM parent_messages WHERE event = 'absent_notice' AND student_id = $1 AND phone = $2 AND body LIKE '%Budi Santoso belum tercatat hadir%'`, f.student, parentPhone); n != 1 {
		t.Fatalf("Budi's notice %d", n)
	}
	// Sunday: never.
	if n, _ := portal.AbsentNotices(ctx, f.env.DB, midnight.AddDate(0, 0, 4).Add(morning)); n != 0 {
		t.Fatalf("Sunday %d", n)
	}
	// Marked present before it went out: the worker cancels it.
	exec(`INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, set_by) VALUES ($1, $2, 1, 'T', false, 'user')`, f.student, day)
	w := &worker.Worker{DB: f.env.DB, Concurrency: 1}
	if _, err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := f.env.DB.Get(&status, `SELECT status FROM parent_messages WHERE event = 'absent_notice'`); err != nil || status != api.ParentMessageCancelled {
		t.Fatalf("%q %v, want cancelled", status, err)
	}
}
