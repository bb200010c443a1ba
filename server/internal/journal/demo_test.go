package journal_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/journal"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// The demo school gets the last ten school days of journal attendance,
// once, after its violations, in a few seconds.
func TestDemoAttendance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.New(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// Friday 2026-11-06 23:30 UTC is Saturday in Jakarta: the ten days end
	// on Friday the 6th.
	now := time.Date(2026, 11, 6, 23, 30, 0, 0, time.UTC)
	if err := violationtype.Boot(ctx, app.Deps{DB: db, Log: log, Config: config.Config{}}); err != nil {
		t.Fatal(err)
	}
	// Nothing before the demo school exists.
	if res, err := journal.LoadDemo(ctx, db, log, journal.DemoOptions{Now: now}); err != nil || res.Loaded {
		t.Fatalf("without the demo school: %+v %v", res, err)
	}
	if _, err := school.LoadDemo(ctx, db, log, io.Discard, school.DemoOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := violation.LoadDemo(ctx, db, log, violation.DemoOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	res, err := journal.LoadDemo(ctx, db, log, journal.DemoOptions{Now: now})
	if err != nil || !res.Loaded {
		t.Fatalf("%+v %v", res, err)
	}
	t.Logf("%d entries over %v in %v: %+v", res.Entries, res.Days, res.Took, res.Result)
	if len(res.Days) != 10 || res.Days[9] != "2026-11-06" || res.Days[0] != "2026-10-26" {
		t.Errorf("days %v", res.Days)
	}
	var active, days, alphaDays, lateDays int
	db.Get(&active, `SELECT count(*) FROM students WHERE active`)
	db.Get(&days, `SELECT count(*) FROM attendance_days`)
	db.Get(&alphaDays, `SELECT count(*) FROM violations WHERE auto_kind = 'alpha' AND recorded_by IS NULL`)
	db.Get(&lateDays, `SELECT count(*) FROM violations WHERE auto_kind = 'late'`)
	if days != active*10 || res.Entries != active*100 {
		t.Errorf("%d student-days, %d entries for %d students", days, res.Entries, active)
	}
	if alphaDays < days/20 || alphaDays > days/3 || lateDays < days/20 || lateDays > days/3 {
		t.Errorf("automatic violations: %d alpha, %d late of %d student-days", alphaDays, lateDays, days)
	}
	if res.Took > 20*time.Second {
		t.Errorf("took %v", res.Took)
	}
	// Once only.
	if again, err := journal.LoadDemo(ctx, db, log, journal.DemoOptions{Now: now}); err != nil || again.Loaded {
		t.Errorf("second load: %+v %v", again, err)
	}
}
