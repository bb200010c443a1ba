package attendancebench_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/earlywarning"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// BenchmarkEarlyWarningsYear measures the early warnings with a whole
// school year present (see generate; plus a handling for one violation in
// ten, a third of them with a follow-up date around today): the counts the
// dashboard shows (earlywarning.Counts, for the school and for a class of
// 40) and GET /early-warnings (the counts and the first page) as a
// counselor and as the homeroom teacher. Beside each: a floor from the
// same run, the bare statements any implementation must run (the
// per-student sum of the academic year's points and the A days of the
// latest 30 school days). No figure is asserted: the targets (counts < 20
// ms, the page < 100 ms) are printed.
func BenchmarkEarlyWarningsYear(b *testing.B) {
	env := apitest.New(b)
	ctx := context.Background()
	bk := env.As(perm.BK)
	y, err := generate(ctx, env.DB, bk.UserID, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	env.DB.MustExec(`INSERT INTO handlings (violation_id, handling_type_id, handled_on, follow_up_on, created_by)
		SELECT v.id, (SELECT min(id) FROM handling_types), v.occurred_on,
			CASE WHEN v.id % 3 = 0 THEN v.occurred_on + 7 END, $1
		FROM violations v WHERE v.id % 10 = 0`, bk.UserID)
	env.DB.MustExec(`VACUUM (ANALYZE) handlings`)
	// The generated homeroom teachers are walikelas1..40, which the test
	// client's own usernames (walikelas<n>) would clash with.
	env.DB.MustExec(`UPDATE users SET username = 'gen_' || username WHERE username LIKE 'walikelas%'`)
	teacher := env.As(perm.WaliKelas)
	env.DB.MustExec(`UPDATE classes SET homeroom_teacher_id = $1 WHERE id = $2`, teacher.UserID, y.Class40)

	now := time.Now()
	p, err := earlywarning.Load(ctx, env.DB, 0, 0, now)
	if err != nil {
		b.Fatal(err)
	}
	c, err := earlywarning.Counts(ctx, env.DB, 0, now)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Printf("early warnings year: %d violations, %d attendance rows; school: %+v (N %d)\n",
		y.Counts.Violations, y.Counts.Attendance, c, p.Points)
	if c.Total == 0 || c.AbsentStreak == 0 || c.FollowUpDue == 0 {
		b.Fatalf("the generated year makes no warnings: %+v", c)
	}

	var from30 string
	if err := env.DB.Get(&from30, `SELECT to_char(min(date), 'YYYY-MM-DD') FROM (SELECT DISTINCT date FROM attendance_days ORDER BY date DESC LIMIT 30) d`); err != nil {
		b.Fatal(err)
	}
	s := &suite{env: env, y: y, bk: bk}
	const floorSQL = `SELECT (SELECT count(*) FROM (SELECT student_id, sum(points) FROM violations
			WHERE occurred_on >= $1::date GROUP BY student_id) t),
		(SELECT count(*) FROM attendance_days WHERE date >= $2::date AND a > 0)`
	floor := s.timeSQL(b, floorSQL, p.YearStart.String(), from30)

	samples := map[string][]time.Duration{}
	var names []string
	add := func(name, target string, got []time.Duration) {
		if _, ok := samples[name]; !ok {
			names = append(names, name)
		}
		samples[name] = append(samples[name], got...)
		_ = target
	}
	targets := map[string]string{}
	counts := func(homeroom int64) []time.Duration {
		out := make([]time.Duration, 0, readReps)
		for range readReps + 1 {
			start := time.Now()
			if _, err := earlywarning.Counts(ctx, env.DB, homeroom, time.Now()); err != nil {
				b.Fatal(err)
			}
			out = append(out, time.Since(start))
		}
		return out[1:]
	}
	timed := func(c *apitest.Client, path string) []time.Duration {
		var pg api.EarlyWarningPage
		c.Do("GET", path, nil).Want(http.StatusOK).JSON(&pg)
		if len(pg.Data) == 0 {
			b.Fatalf("%s: empty page", path)
		}
		out := make([]time.Duration, 0, readReps)
		for range readReps {
			start := time.Now()
			c.Do("GET", path, nil).Want(http.StatusOK)
			out = append(out, time.Since(start))
		}
		return out
	}
	b.Run("Counts", func(b *testing.B) {
		for b.Loop() {
			targets["counts, school (dashboard)"] = "< 20 ms"
			add("counts, school (dashboard)", "< 20 ms", counts(0))
			targets["counts, class of 40 (dashboard)"] = "< 20 ms"
			add("counts, class of 40 (dashboard)", "< 20 ms", counts(teacher.UserID))
		}
	})
	b.Run("Page", func(b *testing.B) {
		for b.Loop() {
			for name, c := range map[string]*apitest.Client{"GET /early-warnings, counselor": bk, "GET /early-warnings, homeroom": teacher} {
				targets[name] = "< 100 ms"
				add(name, "< 100 ms", timed(c, "/api/v1/early-warnings"))
			}
			targets["GET ?kind=near_level&page=3, counselor"] = "< 100 ms"
			add("GET ?kind=near_level&page=3, counselor", "", timed(bk, "/api/v1/early-warnings?kind=near_level&page=3&per_page=20"))
		}
	})

	var w strings.Builder
	fmt.Fprintf(&w, "\nEarly warnings at a school year's scale (%d violations, %d attendance rows, %d cores, load average %s)\n",
		y.Counts.Violations, y.Counts.Attendance, runtime.NumCPU(), loadAverage())
	fmt.Fprintf(&w, "%-40s %10s %10s %8s  %-10s %s\n", "", "median ms", "floor ms", "x floor", "target", "")
	for _, name := range names {
		fig := median(samples[name])
		fmt.Fprintf(&w, "%-40s %10.1f %10.1f %8.2f  %-10s median of %d\n", name, ms(fig), ms(floor), float64(fig)/float64(floor), targets[name], len(samples[name]))
	}
	fmt.Fprint(os.Stdout, w.String())
}
