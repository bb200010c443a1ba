package demo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// The demo school, loaded as `make run` loads it (its types, students,
// violations, then the last ten school days of journal attendance, once),
// is one a principal believes: attendance at a real school's rates, fewer
// than 15 % of students with a live letter, exactly one at SP 3 (the
// README's figure), tens of open behaviour cases; and it says so in its
// log.
func TestDemoAttendance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.New(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	// Friday 2026-11-06 23:30 UTC is Saturday in Jakarta: the ten days end
	// on Friday the 6th.
	now := time.Date(2026, 11, 6, 23, 30, 0, 0, time.UTC)
	if err := demo.Types(ctx, app.Deps{DB: db, Log: quiet}); err != nil {
		t.Fatal(err)
	}
	// Nothing before the demo school exists.
	if res, err := demo.LoadAttendance(ctx, db, quiet, demo.AttendanceOptions{Now: now}); err != nil || res.Loaded {
		t.Fatalf("without the demo school: %+v %v", res, err)
	}
	start := time.Now()
	if _, err := demo.LoadSchool(ctx, db, quiet, io.Discard, demo.SchoolOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.LoadViolations(ctx, db, quiet, demo.ViolationOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	res, err := demo.LoadAttendance(ctx, db, slog.New(slog.NewJSONHandler(&logs, nil)), demo.AttendanceOptions{Now: now})
	if err != nil || !res.Loaded {
		t.Fatalf("%+v %v", res, err)
	}
	f := res.Figures
	t.Logf("%d entries over %v in %v (whole demo %v): %+v", res.Entries, res.Days, res.Took, time.Since(start), res.Result)
	t.Logf("figures %+v", f)
	if len(res.Days) != 10 || res.Days[9] != "2026-11-06" || res.Days[0] != "2026-10-26" {
		t.Errorf("days %v", res.Days)
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := db.Get(&n, q, args...); err != nil {
			t.Fatal(err)
		}
		return n
	}
	active, classes := count(`SELECT count(*) FROM students WHERE active`), count(`SELECT count(DISTINCT class_id) FROM students WHERE active`)
	if f.Students != active || f.StudentDays != active*10 || res.Entries != active*100 || f.Hours != active*100 || f.Dates != 10 {
		t.Errorf("%d students, %d student-days, %d entries, %d hours over %d dates for %d students", f.Students, f.StudentDays, res.Entries, f.Hours, f.Dates, active)
	}

	// Attendance: about 95 % of lesson hours present, alpha 1–2 %.
	if p := demo.Pct(f.H, f.Hours); p < 93 || p > 97 {
		t.Errorf("present %.1f %% of lesson hours", p)
	}
	if p := demo.Pct(f.A, f.Hours); p < 1 || p > 2 {
		t.Errorf("alpha %.1f %% of lesson hours", p)
	}
	// Alpha concentrated: the 3 % of students with the most alpha hours
	// hold most of them.
	top := count(`SELECT COALESCE(sum(a), 0) FROM (SELECT sum(a) AS a FROM attendance_days GROUP BY student_id ORDER BY 1 DESC LIMIT $1) x`, active*3/100)
	if top*2 < f.A {
		t.Errorf("the top 3 %% of students hold %d of %d alpha hours", top, f.A)
	}
	// 3–6 % of students late on a day (each day a little either side), a
	// few of them habitually.
	if p := demo.Pct(f.LateDays, f.StudentDays); p < 3 || p > 6 {
		t.Errorf("%.1f %% of students late a day", p)
	}
	if n := count(`SELECT count(*) FROM (SELECT date FROM attendance_days GROUP BY date
		HAVING count(*) FILTER (WHERE t > 0) NOT BETWEEN count(*) * 2 / 100 AND count(*) * 8 / 100) x`); n != 0 {
		t.Errorf("%d days with fewer than 2 %% or more than 8 %% of students late", n)
	}
	if n := count(`SELECT count(*) FROM (SELECT student_id FROM attendance_days WHERE t > 0 GROUP BY student_id HAVING count(*) >= 4) x`); n < 10 || n > active/20 {
		t.Errorf("%d students late on 4 or more of the 10 days", n)
	}
	// Sick and excused: one to a few a class a day, mostly whole days.
	if perClass := float64(f.SIDays) / float64(classes*10); perClass < 0.7 || perClass > 4 {
		t.Errorf("%.1f students sick or excused a class a day", perClass)
	}
	if f.WholeSIDays*10 < f.SIDays*6 {
		t.Errorf("%d of %d sick or excused student-days are whole days", f.WholeSIDays, f.SIDays)
	}

	// Letters and queues.
	if p := demo.Pct(f.WithLetter, f.Students); p >= 15 || f.Levels[0] < 10 || f.Levels[1] < 1 || f.Levels[2] != 1 {
		t.Errorf("%.1f %% of students with a live letter, per level %v; want < 15 %%, some SP 1, a few SP 2, exactly one SP 3", p, f.Levels)
	}
	if f.OpenBehaviour < 10 || f.OpenBehaviour > 99 {
		t.Errorf("%d open behaviour cases, want tens", f.OpenBehaviour)
	}
	if auto := count(`SELECT count(*) FROM violations WHERE auto_kind IS NOT NULL`); f.OpenAttendance != auto || auto > f.StudentDays/10 {
		t.Errorf("%d open attendance follow-ups of %d automatic violations over %d student-days", f.OpenAttendance, auto, f.StudentDays)
	}

	// The figures are in the log.
	var rec struct {
		Msg     string         `json:"msg"`
		Figures map[string]any `json:"figures"`
	}
	for _, line := range bytes.Split(logs.Bytes(), []byte("\n")) {
		if json.Unmarshal(line, &rec) == nil && rec.Figures != nil {
			break
		}
	}
	if rec.Figures["students"] != float64(f.Students) || rec.Figures["sp3"] != float64(1) || rec.Figures["present_pct"] == nil ||
		rec.Figures["open_behaviour"] != float64(f.OpenBehaviour) {
		t.Errorf("figures not logged: %s", logs.String())
	}

	// Once only.
	if again, err := demo.LoadAttendance(ctx, db, quiet, demo.AttendanceOptions{Now: now}); err != nil || again.Loaded {
		t.Errorf("second load: %+v %v", again, err)
	}
}
