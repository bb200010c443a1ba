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
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/dashboard"
	"github.com/tatib/tatib/shared/perm"
)

// BenchmarkDashboardYear measures the dashboard and the violation calendar
// with a whole school year present (see generate): GET /dashboard as the
// principal (the whole school), a counselor (plus the caseload) and a
// homeroom teacher (a class of 40), and GET /dashboard/violation-calendar
// of last month for the school and the class. Beside each: a floor from
// the same run, the bare statements any implementation must run (the
// dashboard: this month's and the academic year's aggregate of violations
// in one statement; the calendar: the month's count per day). The store's
// own time is printed with its queries in a row (what it does) and side by
// side on the pool, and each query's own time. No figure is asserted: the
// targets (dashboard < 50 ms, calendar < 20 ms) are printed.
func BenchmarkDashboardYear(b *testing.B) {
	env := apitest.New(b)
	ctx := context.Background()
	bk := env.As(perm.BK)
	y, err := generate(ctx, env.DB, bk.UserID, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	fmt.Printf("dashboard year: %d violations, %d letters, %d attendance rows; generated in %.1f s\n",
		y.Counts.Violations, y.Counts.Letters, y.Counts.Attendance, y.Took.Seconds())
	s := &suite{env: env, y: y, bk: bk}
	// The homeroom teacher of the class of 40 gets a password to sign in
	// with (the generated ones have none).
	hash, err := auth.HashPassword("rahasia123")
	if err != nil {
		b.Fatal(err)
	}
	var username string
	if err := env.DB.Get(&username, `UPDATE users u SET password_hash = $1 FROM classes c
		WHERE c.id = $2 AND u.id = c.homeroom_teacher_id RETURNING u.username`, hash, y.Class40); err != nil {
		b.Fatal(err)
	}
	teacher := env.Login(username, "rahasia123")
	principal := env.As(perm.KepalaSekolah)
	var table []row

	m := s.month()
	monthFrom, monthTo := m.Format(time.DateOnly), m.AddDate(0, 1, 0).Format(time.DateOnly)
	p := dashboard.PeriodsOn(time.Now())
	// The dashboard's floor: one pass over this month's violations and one
	// per-student sum over the academic year (its first day from the
	// generated letters: July 1 of the year the data's half-year began).
	var ayStart string
	if err := env.DB.Get(&ayStart, `SELECT to_char(max(academic_year_start), 'YYYY-MM-DD') FROM warning_letters`); err != nil {
		b.Fatal(err)
	}
	const floorDashboardSQL = `SELECT (SELECT count(*) FROM violations WHERE occurred_on >= $1::date),
		(SELECT count(*) FROM (SELECT student_id, sum(points) FROM violations WHERE occurred_on >= $2::date GROUP BY student_id) t)`
	floorDashboard := s.timeSQL(b, floorDashboardSQL, p.PrevMonth.String(), ayStart)
	const floorCalendarSQL = `SELECT occurred_on, count(*) FROM violations WHERE occurred_on >= $1::date AND occurred_on < $2::date GROUP BY 1`
	floorCalendar := s.timeSQL(b, floorCalendarSQL, monthFrom, monthTo)

	timed := func(c *apitest.Client, path string) []time.Duration {
		c.Do("GET", path, nil).Want(http.StatusOK)
		out := make([]time.Duration, 0, readReps)
		for range readReps {
			start := time.Now()
			c.Do("GET", path, nil).Want(http.StatusOK)
			out = append(out, time.Since(start))
		}
		return out
	}
	// add collects samples under name (b.Loop may run a body more than
	// once); the table is made from them at the end.
	samples := map[string][]time.Duration{}
	add := func(name string, got []time.Duration, floor time.Duration, target string) {
		if _, ok := samples[name]; !ok {
			table = append(table, row{name: name, floor: floor, target: target})
		}
		samples[name] = append(samples[name], got...)
	}
	b.Run("Dashboard", func(b *testing.B) {
		for b.Loop() {
			add("dashboard, principal (school)", timed(principal, "/api/v1/dashboard"), floorDashboard, "< 50 ms")
			add("dashboard, counselor (+ caseload)", timed(bk, "/api/v1/dashboard"), floorDashboard, "< 50 ms")
			add("dashboard, homeroom (class of 40)", timed(teacher, "/api/v1/dashboard"), floorDashboard, "< 50 ms")
		}
	})
	b.Run("DashboardStore", func(b *testing.B) {
		all := dashboard.Sections{Violations: true, Caseload: true, Letters: true, Attendance: true, EarlyWarnings: true}
		for b.Loop() {
			for _, parallel := range []bool{true, false} {
				st := dashboard.NewStore(env.DB)
				st.Parallel = parallel
				if _, err := st.Dashboard(ctx, dashboard.Scope{}, all, time.Now()); err != nil {
					b.Fatal(err)
				}
				var got []time.Duration
				for range readReps {
					start := time.Now()
					if _, err := st.Dashboard(ctx, dashboard.Scope{}, all, time.Now()); err != nil {
						b.Fatal(err)
					}
					got = append(got, time.Since(start))
				}
				name := "  store only, one after another"
				if parallel {
					name = "  store only, queries side by side"
				}
				add(name, got, floorDashboard, "")
			}
		}
	})
	// Each query of the whole school's dashboard, one after another: where
	// the time goes.
	b.Run("DashboardQueries", func(b *testing.B) {
		all := dashboard.Sections{Violations: true, Caseload: true, Letters: true, Attendance: true, EarlyWarnings: true}
		st := dashboard.NewStore(env.DB)
		per := map[string][]time.Duration{}
		var names []string
		st.Trace = func(name string, took time.Duration) {
			if _, ok := per[name]; !ok {
				names = append(names, name)
			}
			per[name] = append(per[name], took)
		}
		for b.Loop() {
			for range readReps {
				if _, err := st.Dashboard(ctx, dashboard.Scope{}, all, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		}
		for _, n := range names {
			add("    "+n, per[n], floorDashboard, "")
		}
	})
	b.Run("Calendar", func(b *testing.B) {
		path := "/api/v1/dashboard/violation-calendar?month=" + m.Format("2006-01")
		for b.Loop() {
			add("violation calendar, school ("+m.Format("2006-01")+")", timed(principal, path), floorCalendar, "< 20 ms")
			add("violation calendar, class of 40", timed(teacher, path), floorCalendar, "< 20 ms")
		}
	})

	for i := range table {
		table[i].figure = median(samples[table[i].name])
		table[i].note = fmt.Sprintf("median of %d", len(samples[table[i].name]))
	}
	var w strings.Builder
	fmt.Fprintf(&w, "\nDashboard at a school year's scale (%d violations, %d cores, load average %s)\n", y.Counts.Violations, runtime.NumCPU(), loadAverage())
	fmt.Fprintf(&w, "%-38s %10s %10s %8s  %-10s %s\n", "", "median ms", "floor ms", "x floor", "target", "")
	for _, r := range table {
		fmt.Fprintf(&w, "%-38s %10.1f %10.1f %8.2f  %-10s %s\n", r.name, ms(r.figure), ms(r.floor), float64(r.figure)/float64(r.floor), r.target, r.note)
	}
	fmt.Fprint(os.Stdout, w.String())
}
