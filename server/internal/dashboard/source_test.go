package dashboard_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/followup"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func getQ(t *testing.T, c *apitest.Client, path string) api.Dashboard {
	t.Helper()
	var out api.Dashboard
	c.Do("GET", path, nil).Want(http.StatusOK).JSON(&out)
	return out
}

// automatic marks a violation as an automatic attendance one.
func automatic(s *vltest.School, ids ...int64) {
	for _, id := range ids {
		s.Env.DB.MustExec(`UPDATE violations SET source = 'attendance' WHERE id = $1`, id)
	}
}

// linkSource is the source a figure's link carries ("" when none).
func linkSource(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("source")
}

// Every violation figure, the calendar and the early-warning counts under
// each source, each figure linked to the list of the same source; the
// counselor's caseload and a homeroom teacher's attendance follow-up
// follow the school's setting instead.
func TestDashboardSource(t *testing.T) {
	f := newFixture(t)
	s := f.s
	today := at(f.p.Today)
	// Behaviour: two fights (Berat), Budi and Citra (class A). Attendance
	// (Ringan): Budi's alpha (class A) and Eko's late (class B), each with
	// a follow-up due today.
	s.Violation(vltest.V{Student: f.budi, Type: s.TypeHeavy, At: today, Points: 40})
	s.Violation(vltest.V{Student: f.citra, Type: s.TypeHeavy, At: today, Points: 40, Status: api.HandlingInProgress})
	alpha := s.Violation(vltest.V{Student: f.budi, Type: s.TypeLight1, At: today, Points: 15})
	late := s.Violation(vltest.V{Student: f.eko, Type: s.TypeLight2, At: today, Points: 2})
	automatic(s, alpha, late)
	for _, v := range []int64{alpha, late} {
		s.Env.DB.MustExec(`UPDATE handlings SET follow_up_on = $2 WHERE id = $1`, s.Handling(v, f.p.Today.String()), f.p.Today)
	}
	principal := s.Env.As(perm.KepalaSekolah)

	type want struct {
		count      int
		categories []int64
		types      int
		classes    int
		followUps  int
	}
	for _, c := range []struct {
		source string
		want   want
	}{
		{api.SourceBehaviour, want{2, []int64{s.CatHeavy}, 1, 1, 0}},
		{api.SourceAttendance, want{2, []int64{s.CatLight}, 2, 2, 2}},
		{api.SourceAll, want{4, []int64{s.CatLight, s.CatHeavy}, 3, 2, 2}},
	} {
		t.Run(c.source, func(t *testing.T) {
			d := getQ(t, principal, "/api/v1/dashboard?source="+c.source)
			v := d.Violations
			if d.Source != c.source || v.Today.Count != c.want.count || v.Week.Count != c.want.count || v.Month.Count != c.want.count {
				t.Fatalf("source %q today %d week %d month %d", d.Source, v.Today.Count, v.Week.Count, v.Month.Count)
			}
			var cats []int64
			for _, x := range v.ByCategory {
				cats = append(cats, x.ID)
			}
			slices.Sort(cats)
			if !slices.Equal(cats, c.want.categories) || len(v.TopTypes) != c.want.types || len(v.ClassesByPoints) != c.want.classes {
				t.Fatalf("categories %v types %d classes %d", cats, len(v.TopTypes), len(v.ClassesByPoints))
			}
			if last := v.Trend[len(v.Trend)-1]; last.Count != c.want.count {
				t.Fatalf("trend's last week %+v", last)
			}
			// Every figure links to the list of its source.
			links := []string{v.Today.Link, v.Week.Link, v.Month.Link, d.EarlyWarnings.Link}
			for _, x := range v.ByCategory {
				links = append(links, x.Link)
			}
			for _, x := range v.TopTypes {
				links = append(links, x.Link)
			}
			for _, x := range v.ClassesByPoints {
				links = append(links, x.Link)
			}
			for _, x := range v.Trend {
				links = append(links, x.Link)
			}
			for _, l := range links {
				if linkSource(t, l) != c.source {
					t.Errorf("link %q", l)
				}
			}
			// The list behind the today figure counts the same rows.
			var page api.Page[api.Violation]
			principal.Do("GET", "/api/v1"+v.Today.Link, nil).Want(http.StatusOK).JSON(&page)
			if page.Meta.Total != v.Today.Count {
				t.Errorf("today's list has %d, the figure %d", page.Meta.Total, v.Today.Count)
			}
			// The points toward letters count every source.
			if len(v.NearestSP) != 3 {
				t.Errorf("nearest %+v", v.NearestSP)
			}
			if got := d.EarlyWarnings.Counts.FollowUpDue; got != c.want.followUps {
				t.Errorf("early-warning follow-ups %d, want %d", got, c.want.followUps)
			}
			var cal api.ViolationCalendar
			month := f.p.Today.MonthString()
			principal.Do("GET", "/api/v1/dashboard/violation-calendar?month="+month+"&source="+c.source, nil).Want(http.StatusOK).JSON(&cal)
			if cal.Source != c.source || cal.Total != c.want.count || len(cal.Days) != 1 || linkSource(t, cal.Days[0].Link) != c.source {
				t.Errorf("calendar %+v", cal)
			}
		})
	}
	t.Run("NoSourceIsAll", func(t *testing.T) {
		if d := get(t, principal); d.Source != api.SourceAll || d.Violations.Today.Count != 4 {
			t.Errorf("source %q today %d", d.Source, d.Violations.Today.Count)
		}
		if d := getQ(t, principal, "/api/v1/dashboard?source=manual"); d.Source != api.SourceBehaviour || d.Violations.Today.Count != 2 {
			t.Errorf("manual: source %q today %d", d.Source, d.Violations.Today.Count)
		}
	})
	t.Run("HomeroomScopeKept", func(t *testing.T) {
		if d := getQ(t, s.TeacherA, "/api/v1/dashboard?source=attendance"); d.Violations.Today.Count != 1 || len(d.Violations.ClassesByPoints) != 1 {
			t.Errorf("teacher A, attendance: %+v", d.Violations.Today)
		}
		if d := getQ(t, s.TeacherB, "/api/v1/dashboard?source=behaviour"); d.Violations.Today.Count != 0 {
			t.Errorf("teacher B, behaviour: %+v", d.Violations.Today)
		}
		var cal api.ViolationCalendar
		s.TeacherB.Do("GET", "/api/v1/dashboard/violation-calendar?source=attendance", nil).Want(http.StatusOK).JSON(&cal)
		if cal.Total != 1 {
			t.Errorf("teacher B's attendance calendar %+v", cal)
		}
	})
	t.Run("CaseloadFollowsSetting", func(t *testing.T) {
		// Homeroom teachers follow up attendance: the counselor's queue is
		// behaviour, whatever the dashboard's source.
		d := getQ(t, s.BK, "/api/v1/dashboard?source=attendance")
		c := d.Caseload
		if d.FollowUpOwner != api.FollowUpHomeroomTeacher || c.Source != api.SourceBehaviour || c.Unhandled.Count != 1 || c.InProgress.Count != 1 ||
			c.FollowUpsToday.Count != 0 || linkSource(t, c.Unhandled.Link) != api.SourceBehaviour || d.AttendanceFollowUp != nil {
			t.Fatalf("caseload %+v follow-up %+v", c, d.AttendanceFollowUp)
		}
		// Each homeroom teacher sees their class's attendance follow-up.
		a := getQ(t, s.TeacherA, "/api/v1/dashboard").AttendanceFollowUp
		if a == nil || a.Unhandled.Count != 1 || a.InProgress.Count != 0 || a.Unhandled.Link != "/violations?handling_status=unhandled&period=all&source=attendance" {
			t.Fatalf("teacher A's follow-up %+v", a)
		}
		if b := getQ(t, s.TeacherB, "/api/v1/dashboard").AttendanceFollowUp; b == nil || b.Unhandled.Count != 1 {
			t.Fatalf("teacher B's follow-up %+v", b)
		}
		// The counselors follow up attendance: their queue is everything,
		// and the homeroom teachers' card goes.
		admin := s.Env.As(perm.Admin)
		admin.Do("PUT", "/api/v1/settings/attendance-follow-up", api.AttendanceFollowUp{Owner: api.FollowUpCounselor,
			AbsentStreakDays: 3, LateTimes: 5, LateSchoolDays: 10}).Want(http.StatusOK)
		d = getQ(t, s.BK, "/api/v1/dashboard?source=behaviour")
		c = d.Caseload
		if d.FollowUpOwner != api.FollowUpCounselor || c.Source != api.SourceAll || c.Unhandled.Count != 3 || c.FollowUpsToday.Count != 2 ||
			!strings.Contains(c.FollowUpsToday.Link, "source=all") {
			t.Fatalf("caseload %+v", c)
		}
		if a := getQ(t, s.TeacherA, "/api/v1/dashboard").AttendanceFollowUp; a != nil {
			t.Fatalf("teacher A's follow-up under counselor follow-up: %+v", a)
		}
		admin.Do("PUT", "/api/v1/settings/attendance-follow-up", followup.Defaults()).Want(http.StatusOK)
	})
	t.Run("ErrSource", func(t *testing.T) {
		for _, p := range []string{"/api/v1/dashboard?source=alpha", "/api/v1/dashboard/violation-calendar?source=1"} {
			e := principal.Do("GET", p, nil).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.FieldCodes["source"].Code != "violationlist.filter.source" {
				t.Errorf("%s: %+v", p, e.Error)
			}
		}
	})
}
