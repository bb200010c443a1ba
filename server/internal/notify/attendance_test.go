package notify_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/pg"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// A journal push through attendance.ApplyTx notifies once per recipient
// and date; pushing the same day again (updates) notifies nobody.
func TestAttendanceApplyNotifies(t *testing.T) {
	s := newSchool(t)
	bk := s.A.Env.As(perm.BK)
	push := func() {
		t.Helper()
		var entries []attendance.Entry
		for _, st := range []int64{s.StudentA, s.StudentB} {
			for h := 1; h <= 8; h++ {
				entries = append(entries, attendance.Entry{StudentID: st, Date: "2026-11-03", LessonHour: h, Status: wire.AttendanceAlpha})
			}
		}
		err := pg.InTx(context.Background(), s.A.db, func(tx *sqlx.Tx) error {
			_, err := attendance.ApplyTx(context.Background(), tx, entries, attendance.Origin{Journal: true})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	list := func() []wire.Notification {
		var page wire.Page[wire.Notification]
		bk.Do("GET", "/api/v1/notifications", nil).Want(http.StatusOK).JSON(&page)
		return page.Data
	}
	push()
	got := list()
	if len(got) != 1 || got[0].Kind != wire.NotificationAttendance || got[0].Title != "Jurnal 2026-11-03: 2 alpha, 0 terlambat" {
		t.Fatalf("after the push: %+v", got)
	}
	push()
	if got := list(); len(got) != 1 {
		t.Errorf("the same push again notified: %d", len(got))
	}
}

// Probe finding: an E-Jurnal that pushes entry by entry gave each recipient
// 74 notifications a day. Each push that adds to a day replaces the day's
// notification with one that counts both; another day is its own.
func TestAttendanceOnePerRecipientAndDay(t *testing.T) {
	s := newSchool(t)
	bk := s.A.Env.As(perm.BK)
	push := func(student int64, date, status string) {
		t.Helper()
		var entries []attendance.Entry
		for h := 1; h <= 8; h++ {
			entries = append(entries, attendance.Entry{StudentID: student, Date: date, LessonHour: h, Status: status})
		}
		err := pg.InTx(context.Background(), s.A.db, func(tx *sqlx.Tx) error {
			_, err := attendance.ApplyTx(context.Background(), tx, entries, attendance.Origin{Journal: true})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	list := func(c *apitest.Client) []wire.Notification {
		var page wire.Page[wire.Notification]
		c.Do("GET", "/api/v1/notifications", nil).Want(http.StatusOK).JSON(&page)
		return page.Data
	}
	push(s.StudentA, "2026-11-03", wire.AttendanceAlpha)
	first := list(bk)
	bk.Do("POST", "/api/v1/notifications/read-all", nil).Want(http.StatusOK)
	push(s.StudentB, "2026-11-03", wire.AttendanceAlpha)
	got := list(bk)
	if len(got) != 1 || got[0].Title != "Jurnal 2026-11-03: 2 alpha, 0 terlambat" || got[0].ID == first[0].ID || got[0].ReadAt != nil {
		t.Fatalf("after the second push of the day: %+v", got)
	}
	// Teacher A sees only class A's student: one, with the class kept.
	if a := list(s.TeacherA); len(a) != 1 || a[0].Params["class"] != "XI IPA 1" {
		t.Fatalf("teacher A: %+v", a)
	}
	push(s.StudentA, "2026-11-04", wire.AttendanceAlpha)
	if got := list(bk); len(got) != 2 {
		t.Fatalf("another day: %d notifications", len(got))
	}
}
