package notify_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jmoiron/sqlx"

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
