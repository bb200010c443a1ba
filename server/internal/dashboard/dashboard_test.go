package dashboard_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/dashboard"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

var jakarta = func() *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		panic(err)
	}
	return l
}()

func date(s string) schoolday.Date { return schoolday.MustParseDate(s) }

func TestPeriodsOn(t *testing.T) {
	iso := func(d schoolday.Date) string { return d.String() }
	t.Run("Monday", func(t *testing.T) {
		// 2026-03-02 07:00 Jakarta is a Monday; 2026-03-01 23:30 UTC is
		// already that Monday in Jakarta.
		p := dashboard.PeriodsOn(time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC))
		if iso(p.Today) != "2026-03-02" || iso(p.PrevDay) != "2026-02-27" || iso(p.Week) != "2026-03-02" {
			t.Fatalf("today %s prev %s week %s", iso(p.Today), iso(p.PrevDay), iso(p.Week))
		}
		if iso(p.PrevWeek) != "2026-02-23" || iso(p.PrevWeekTo) != "2026-02-23" {
			t.Fatalf("previous week %s..%s", iso(p.PrevWeek), iso(p.PrevWeekTo))
		}
		if iso(p.TrendFrom) != "2025-12-15" {
			t.Fatalf("trend from %s", iso(p.TrendFrom))
		}
	})
	t.Run("MonthEndLongerThanPrevious", func(t *testing.T) {
		p := dashboard.PeriodsOn(time.Date(2026, 3, 31, 5, 0, 0, 0, jakarta))
		if iso(p.Month) != "2026-03-01" || iso(p.MonthEnd) != "2026-03-31" || iso(p.PrevMonth) != "2026-02-01" || iso(p.PrevMonthTo) != "2026-02-28" {
			t.Fatalf("month %s..%s previous %s..%s", iso(p.Month), iso(p.MonthEnd), iso(p.PrevMonth), iso(p.PrevMonthTo))
		}
		if iso(p.PrevDay) != "2026-03-30" {
			t.Fatalf("previous day %s", iso(p.PrevDay))
		}
	})
}

// fixture: class A (teacher A) holds Budi and Citra, class B Eko; class A
// has a third student, Dedi, with nothing stored today.
type fixture struct {
	s                 *vltest.School
	budi, citra, dedi int64
	eko               int64
	p                 dashboard.Periods
}

func newFixture(t *testing.T) fixture {
	s := vltest.New(t)
	f := fixture{s: s,
		budi:  s.Student("Budi Santoso", "0051234567", "2401", s.ClassA),
		citra: s.Student("Citra Lestari", "0057654321", "2402", s.ClassA),
		dedi:  s.Student("Dedi Jaya", "0050000001", "2403", s.ClassA),
		eko:   s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB),
		p:     dashboard.PeriodsOn(time.Now()),
	}
	return f
}

// at is 10:00 Jakarta on d.
func at(d schoolday.Date) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 10, 0, 0, 0, jakarta)
}

func get(t *testing.T, c *apitest.Client) api.Dashboard {
	t.Helper()
	var out api.Dashboard
	c.Do("GET", "/api/v1/dashboard", nil).Want(http.StatusOK).JSON(&out)
	return out
}

func day(s *vltest.School, student int64, d string, h, sick, a int) {
	s.Env.DB.MustExec(`INSERT INTO attendance_days (student_id, date, h, s, a) VALUES ($1, $2, $3, $4, $5)`, student, d, h, sick, a)
}

func TestDashboard(t *testing.T) {
	f := newFixture(t)
	s := f.s
	today := at(f.p.Today)
	// Today: Budi (A) twice, one heavy; Eko (B) once. The previous school
	// day: Citra once.
	s.Violation(vltest.V{Student: f.budi, At: today})
	s.Violation(vltest.V{Student: f.budi, At: today, Type: s.TypeHeavy, Points: 30})
	eko := s.Violation(vltest.V{Student: f.eko, At: today, Status: "in_progress"})
	s.Violation(vltest.V{Student: f.citra, At: at(f.p.PrevDay), Status: "resolved"})
	// A follow-up due today on Eko's, one overdue on Budi's earlier one.
	old := s.Violation(vltest.V{Student: f.budi, At: today.AddDate(0, 0, -40), Status: "in_progress"})
	s.Env.DB.MustExec(`UPDATE handlings SET follow_up_on = $2 WHERE id = $1`, s.Handling(eko, f.p.Today.String()), f.p.Today)
	s.Env.DB.MustExec(`UPDATE handlings SET follow_up_on = $2 WHERE id = $1`, s.Handling(old, f.p.Today.AddDays(-35).String()), f.p.Today.AddDays(-1))
	// Attendance today: Budi present with an A hour, Eko sick; Citra and
	// Dedi nothing.
	todayISO := f.p.Today.String()
	day(s, f.budi, todayISO, 9, 0, 1)
	day(s, f.eko, todayISO, 0, 10, 0)
	// A draft letter for Budi this month.
	s.Env.DB.MustExec(`INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points)
		VALUES ($1, $2, 'X RPL 1', 1, 'SP 1', 40, '2025-07-01', 50)`, f.budi, s.ClassA)

	inWeek := !f.p.PrevDay.Before(f.p.Week)
	inMonth := !f.p.PrevDay.Before(f.p.Month)

	t.Run("OKPrincipalWholeSchool", func(t *testing.T) {
		d := get(t, s.Env.As(perm.KepalaSekolah))
		if d.Scope != "school" || d.Class != nil || d.Today != todayISO {
			t.Fatalf("scope %q class %+v today %s", d.Scope, d.Class, d.Today)
		}
		v := d.Violations
		if v == nil || d.Letters == nil || d.Attendance == nil {
			t.Fatalf("sections missing: %+v", d)
		}
		if d.Caseload != nil {
			t.Fatal("the principal got a caseload")
		}
		if d.EarlyWarnings == nil || d.EarlyWarnings.Link != "/peringatan-dini?source=all" || d.EarlyWarnings.Counts.FollowUpDue == 0 {
			t.Fatalf("early warnings %+v", d.EarlyWarnings)
		}
		if v.Today.Count != 3 || *v.Today.Previous != 1 {
			t.Fatalf("today %d previous %d", v.Today.Count, *v.Today.Previous)
		}
		wantWeek, wantMonth := 3, 3
		if inWeek {
			wantWeek++
		}
		if inMonth {
			wantMonth++
		}
		if v.Week.Count != wantWeek || v.Month.Count != wantMonth {
			t.Fatalf("week %d (want %d) month %d (want %d)", v.Week.Count, wantWeek, v.Month.Count, wantMonth)
		}
		if v.Today.Link != "/violations?from="+todayISO+"&source=all&to="+todayISO {
			t.Fatalf("today's link %q", v.Today.Link)
		}
		// Categories: Ringan (2 or 3) before Berat (1), each linked.
		if len(v.ByCategory) != 2 || v.ByCategory[0].ID != s.CatLight || v.ByCategory[1].Count != 1 ||
			!strings.Contains(v.ByCategory[1].Link, fmt.Sprintf("category_id=%d", s.CatHeavy)) {
			t.Fatalf("by category %+v", v.ByCategory)
		}
		if len(v.TopTypes) != 2 || v.TopTypes[0].ID != s.TypeLight1 || !strings.Contains(v.TopTypes[0].Link, fmt.Sprintf("type_id=%d", s.TypeLight1)) {
			t.Fatalf("top types %+v", v.TopTypes)
		}
		if len(v.ClassesByPoints) != 2 || v.ClassesByPoints[0].ID != s.ClassA || v.ClassesByPoints[0].Points < 35 {
			t.Fatalf("classes %+v", v.ClassesByPoints)
		}
		if len(v.Trend) != dashboard.TrendWeeks || v.Trend[dashboard.TrendWeeks-1].Week != f.p.Week.String() ||
			v.Trend[dashboard.TrendWeeks-1].Count != wantWeek {
			t.Fatalf("trend %+v", v.Trend)
		}
		// Nearest level: Budi (35 or 40 this year: the old one counts when in
		// this academic year) ahead of Eko (5).
		if len(v.NearestSP) < 2 || v.NearestSP[0].StudentID != f.budi {
			t.Fatalf("nearest %+v", v.NearestSP)
		}
		for _, n := range v.NearestSP {
			if n.PointsToGo <= 0 || n.Link != fmt.Sprintf("/students/%d", n.StudentID) {
				t.Fatalf("nearest %+v", n)
			}
		}
		a := d.Attendance
		if a.Total != 4 || a.Recorded != 2 || a.Students.H != 1 || a.Students.A != 1 || a.Students.S != 1 || a.NotFilled != nil {
			t.Fatalf("attendance %+v", a)
		}
		if d.Letters.Total.Count != 1 || d.Letters.ByStatus[0].Status != "draft" || d.Letters.ByStatus[0].Count != 1 ||
			!strings.HasPrefix(d.Letters.ByStatus[0].Link, "/surat-peringatan?") {
			t.Fatalf("letters %+v", d.Letters)
		}
	})

	t.Run("OKCounselorCaseload", func(t *testing.T) {
		d := get(t, s.BK)
		c := d.Caseload
		if c == nil || d.Violations == nil {
			t.Fatalf("caseload %+v", d)
		}
		if c.Unhandled.Count != 2 || c.InProgress.Count != 2 || c.FollowUpsToday.Count != 1 || c.FollowUpsOverdue.Count != 1 {
			t.Fatalf("caseload %+v", c)
		}
		if c.Unhandled.Link != "/violations?handling_status=unhandled&period=all&source=behaviour" {
			t.Fatalf("unhandled link %q", c.Unhandled.Link)
		}
	})

	t.Run("OKHomeroomOwnClass", func(t *testing.T) {
		d := get(t, s.TeacherA)
		if d.Scope != "class" || d.Class == nil || d.Class.ID != s.ClassA {
			t.Fatalf("scope %q class %+v", d.Scope, d.Class)
		}
		if d.Violations.Today.Count != 2 || len(d.Violations.ClassesByPoints) != 1 || d.Violations.ClassesByPoints[0].ID != s.ClassA {
			t.Fatalf("violations %+v", d.Violations)
		}
		for _, n := range d.Violations.NearestSP {
			if n.StudentID == f.eko {
				t.Fatal("another class's student is in the nearest list")
			}
		}
		a := d.Attendance
		if a.Total != 3 || a.Recorded != 1 || a.Students.S != 0 || a.NotFilled == nil || a.NotFilled.Count != 2 {
			t.Fatalf("attendance %+v", a)
		}
		if a.NotFilled.Link != fmt.Sprintf("/absensi/%d/%s", s.ClassA, todayISO) {
			t.Fatalf("not filled link %q", a.NotFilled.Link)
		}
		if d.Caseload != nil || d.Letters.Total.Count != 1 {
			t.Fatalf("caseload %+v letters %+v", d.Caseload, d.Letters)
		}
		// Teacher B sees Eko's only, and no letter.
		b := get(t, s.TeacherB)
		if b.Violations.Today.Count != 1 || b.Letters.Total.Count != 0 || b.Attendance.NotFilled.Count != 0 {
			t.Fatalf("teacher B %+v %+v %+v", b.Violations.Today, b.Letters.Total, b.Attendance.NotFilled)
		}
	})

	t.Run("OKStaffSeesNoLists", func(t *testing.T) {
		var raw map[string]any
		s.Env.As(perm.Staff).Do("GET", "/api/v1/dashboard", nil).Want(http.StatusOK).JSON(&raw)
		for _, k := range []string{"violations", "caseload", "letters", "attendance", "early_warnings"} {
			v, ok := raw[k]
			if !ok || v != nil {
				t.Fatalf("%s = %v (present %v), want null", k, v, ok)
			}
		}
	})

	t.Run("OKPermissionRemovedHidesSection", func(t *testing.T) {
		admin := s.Env.As(perm.Admin)
		var role api.RoleInfo
		for _, r := range roles(t, admin) {
			if r.Role == perm.Waka {
				role = r
			}
		}
		var keep []perm.Name
		for _, n := range role.Permissions {
			if n != perm.AttendanceView {
				keep = append(keep, n)
			}
		}
		admin.Do("PUT", "/api/v1/roles/waka/permissions", map[string]any{"permissions": keep}).Want(http.StatusOK, http.StatusNoContent)
		d := get(t, s.Env.As(perm.Waka))
		if d.Attendance != nil || d.Violations == nil {
			t.Fatalf("attendance %+v violations nil %v", d.Attendance, d.Violations == nil)
		}
	})
}

func roles(t *testing.T, c *apitest.Client) []api.RoleInfo {
	t.Helper()
	var out struct {
		Data []api.RoleInfo `json:"data"`
	}
	c.Do("GET", "/api/v1/roles", nil).Want(http.StatusOK).JSON(&out)
	return out.Data
}

func TestCalendar(t *testing.T) {
	f := newFixture(t)
	s := f.s
	s.Violation(vltest.V{Student: f.budi, At: at(date("2026-11-03"))})
	s.Violation(vltest.V{Student: f.budi, At: at(date("2026-11-03"))})
	s.Violation(vltest.V{Student: f.eko, At: at(date("2026-11-03"))})
	s.Violation(vltest.V{Student: f.eko, At: at(date("2026-11-20"))})
	s.Violation(vltest.V{Student: f.eko, At: at(date("2026-12-01"))})
	// 23:30 Jakarta on the last day of October stays in October.
	s.Violation(vltest.V{Student: f.eko, At: time.Date(2026, 10, 31, 23, 30, 0, 0, jakarta)})

	cal := func(c *apitest.Client, month string) api.ViolationCalendar {
		t.Helper()
		var out api.ViolationCalendar
		c.Do("GET", "/api/v1/dashboard/violation-calendar?month="+month, nil).Want(http.StatusOK).JSON(&out)
		return out
	}
	t.Run("OKWholeSchool", func(t *testing.T) {
		c := cal(s.Env.As(perm.KepalaSekolah), "2026-11")
		if c.Month != "2026-11" || c.Prev != "2026-10" || c.Next != "2026-12" || c.Total != 4 || c.Max != 3 || len(c.Days) != 2 {
			t.Fatalf("calendar %+v", c)
		}
		if c.Days[0].Date != "2026-11-03" || c.Days[0].Count != 3 || c.Days[0].Link != "/violations?from=2026-11-03&source=all&to=2026-11-03" {
			t.Fatalf("day %+v", c.Days[0])
		}
		if o := cal(s.BK, "2026-10"); o.Total != 1 || o.Days[0].Date != "2026-10-31" {
			t.Fatalf("october %+v", o)
		}
	})
	t.Run("OKHomeroomOwnClass", func(t *testing.T) {
		c := cal(s.TeacherA, "2026-11")
		if c.Total != 2 || len(c.Days) != 1 || c.Days[0].Count != 2 {
			t.Fatalf("calendar %+v", c)
		}
	})
	t.Run("OKEmptyMonth", func(t *testing.T) {
		var raw map[string]any
		s.BK.Do("GET", "/api/v1/dashboard/violation-calendar?month=2030-01", nil).Want(http.StatusOK).JSON(&raw)
		if days, ok := raw["days"].([]any); !ok || len(days) != 0 {
			t.Fatalf("days %v", raw["days"])
		}
	})
	t.Run("ErrMonth", func(t *testing.T) {
		for _, m := range []string{"2026-13", "2026-1", "nov", "1999-12"} {
			res := s.BK.Do("GET", "/api/v1/dashboard/violation-calendar?month="+m, nil).Want(http.StatusUnprocessableEntity)
			if !strings.Contains(string(res.Body), `"month"`) {
				t.Fatalf("%s: %s", m, res.Body)
			}
		}
	})
	t.Run("ErrNoViolationsView", func(t *testing.T) {
		s.Env.As(perm.Staff).Do("GET", "/api/v1/dashboard/violation-calendar", nil).Want(http.StatusForbidden)
	})
}
