package attendancerecap_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// TestDayRules runs the one definition of a day's status (the SQL function
// every recap and the semester hand-off use) over hour counts, ties
// included: majority breaks them A > S > I > T > H; any_alpha makes any A
// hour an A day. Only filled hours count.
func TestDayRules(t *testing.T) {
	db := pgtest.New(t)
	for _, c := range []struct {
		name               string
		h, s, i, a, t      int
		majority, anyAlpha string
	}{
		{"nothing filled", 0, 0, 0, 0, 0, "", ""},
		{"all present", 10, 0, 0, 0, 0, "H", "H"},
		{"two hours skipped", 8, 0, 0, 2, 0, "H", "A"},
		{"half absent: tie A-H", 5, 0, 0, 5, 0, "A", "A"},
		{"tie S-H", 5, 5, 0, 0, 0, "S", "S"},
		{"tie I-H", 5, 0, 5, 0, 0, "I", "I"},
		{"tie T-H", 5, 0, 0, 0, 5, "T", "T"},
		{"tie S-I above H and A", 2, 3, 3, 2, 0, "S", "A"},
		{"tie I-T", 2, 0, 4, 0, 4, "I", "I"},
		{"three-way tie A-S-I", 0, 3, 3, 3, 0, "A", "A"},
		{"tie S-T-H, one A", 3, 3, 0, 1, 3, "S", "A"},
		{"late most hours", 4, 0, 0, 0, 6, "T", "T"},
		{"sick all day", 0, 10, 0, 0, 0, "S", "S"},
		{"only three hours filled", 2, 0, 0, 1, 0, "H", "A"},
		{"one hour filled, A", 0, 0, 0, 1, 0, "A", "A"},
		{"tie T-H with an A", 4, 0, 0, 2, 4, "T", "A"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for rule, want := range map[string]string{api.DayRuleMajority: c.majority, api.DayRuleAnyAlpha: c.anyAlpha} {
				var got sql.NullString
				// smallint arguments, as attendance_days holds them.
				if err := db.Get(&got, `SELECT attendance_day_status($1::smallint, $2::smallint, $3::smallint, $4::smallint, $5::smallint, $6)`,
					c.h, c.s, c.i, c.a, c.t, rule); err != nil {
					t.Fatal(err)
				}
				if got.String != want {
					t.Errorf("%s: %q, want %q", rule, got.String, want)
				}
			}
		})
	}
}

// TestDayRuleSetting: majority until someone with settings.manage picks
// another rule; the change is audited once, an unknown rule is 422, and
// every recap and the semester hand-off follow the stored rule.
func TestDayRuleSetting(t *testing.T) {
	f := newFixture(t)
	s := f.s
	admin := s.Env.As(perm.Admin)
	mark(t, s, f.budi, "2025-11-04", "AAHHHHHHHH")

	var rule api.AttendanceDayRuleSetting
	s.BK.Do("GET", "/api/v1/settings/attendance-day-rule", nil).Want(http.StatusOK).JSON(&rule)
	if rule.Rule != "majority" || rule.UpdatedAt != nil {
		t.Fatalf("default rule %+v", rule)
	}
	r := recap(t, s.BK, s.ClassA, "period=daily&date=2025-11-04")
	if st := student(t, r, f.budi); st.DayStatuses[0] != "H" || r.Summary[0].Students != (api.AttendanceCounts{H: 1}) {
		t.Errorf("majority: Budi's day %q, summary %+v", st.DayStatuses, r.Summary[0])
	}

	e := admin.Do("PUT", "/api/v1/settings/attendance-day-rule", map[string]any{"rule": "worst"}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["rule"].Code != "attendancerecap.day_rule" {
		t.Errorf("unknown rule: %+v", e.Error)
	}
	admin.Do("PUT", "/api/v1/settings/attendance-day-rule", map[string]any{"rule": "any_alpha"}).Want(http.StatusOK).JSON(&rule)
	if rule.Rule != "any_alpha" || rule.UpdatedAt == nil {
		t.Errorf("saved %+v", rule)
	}
	admin.Do("PUT", "/api/v1/settings/attendance-day-rule", map[string]any{"rule": "any_alpha"}).Want(http.StatusOK)
	var audits []string
	if err := s.Env.DB.Select(&audits, `SELECT details::text FROM audit_log WHERE action = 'settings.attendance_day_rule.update'`); err != nil {
		t.Fatal(err)
	}
	if len(audits) != 1 || audits[0] != `{"after": "any_alpha", "before": "majority"}` {
		t.Errorf("audit entries %q", audits)
	}

	r = recap(t, s.BK, s.ClassA, "period=daily&date=2025-11-04")
	if st := student(t, r, f.budi); st.DayStatuses[0] != "A" || st.DayCounts != (api.AttendanceCounts{A: 1}) || r.DayRule != "any_alpha" {
		t.Errorf("any_alpha: Budi's day %q %+v (%s)", st.DayStatuses, st.DayCounts, r.DayRule)
	}
	var sem api.AttendanceSemester
	s.BK.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-semester?year=2025&semester=1", s.ClassA), nil).Want(http.StatusOK).JSON(&sem)
	if sem.DayRule != "any_alpha" || sem.Students[0].Alpa != 1 || sem.Students[0].Hadir != 0 {
		t.Errorf("semester under any_alpha: %+v", sem)
	}

	// Who may read and change it.
	s.BK.Do("PUT", "/api/v1/settings/attendance-day-rule", map[string]any{"rule": "majority"}).Want(http.StatusForbidden)
	s.TeacherA.Do("GET", "/api/v1/settings/attendance-day-rule", nil).Want(http.StatusForbidden)
	s.Env.As(perm.Staff).Do("PUT", "/api/v1/settings/attendance-day-rule", map[string]any{"rule": "majority"}).Want(http.StatusForbidden)
	s.Env.Anonymous().Do("GET", "/api/v1/settings/attendance-day-rule", nil).Want(http.StatusUnauthorized)
}

// TestChipsAddUpToTheClass: on every day of every period, the students per
// day status and the unrecorded are the class (and, in the school recap,
// the school); over a period, the student-days per status and the
// unrecorded student-days are the class times its school days.
func TestChipsAddUpToTheClass(t *testing.T) {
	f := newFixture(t)
	s := f.s
	// 3 Nov: Budi two A hours (an H day), Citra a tie S-I (S), Dedi nothing.
	mark(t, s, f.budi, "2025-11-03", "AAHHHHHHHH")
	mark(t, s, f.citra, "2025-11-03", "SSSSSIIIII")
	// 4 Nov: everyone, Dedi late most hours; Eko (class B) absent.
	mark(t, s, f.budi, "2025-11-04", "HHHHHHHHHH")
	mark(t, s, f.citra, "2025-11-04", "AAAAAHHHHH")
	mark(t, s, f.dedi, "2025-11-04", "TTTTTTHHHH")
	mark(t, s, f.eko, "2025-11-04", "AAAAAAAAAA")
	// 7 Nov: only Eko (class A has nothing: a school day it did not record).
	mark(t, s, f.eko, "2025-11-07", "HHHHHHHHHH")
	// 2 Dec: a partly filled day.
	mark(t, s, f.budi, "2025-12-02", "HA--------")

	sum := func(c api.AttendanceCounts) int { return c.H + c.S + c.I + c.A + c.T }
	for _, q := range []string{"period=daily&date=2025-11-03", "period=daily&date=2025-11-06", "period=weekly&date=2025-11-05",
		"period=monthly&date=2025-11-20", "period=semester&date=2025-11-20"} {
		r := recap(t, s.BK, s.ClassA, q)
		for _, d := range r.Summary {
			if sum(d.Students)+d.Unrecorded != len(r.Students) || sum(d.Students) != d.Recorded {
				t.Errorf("%s %s: %+v does not add up to %d", q, d.Date, d, len(r.Students))
			}
		}
		if sum(r.Days)+r.DaysUnrecorded != len(r.Students)*r.SchoolDays {
			t.Errorf("%s: %+v + %d != %d x %d", q, r.Days, r.DaysUnrecorded, len(r.Students), r.SchoolDays)
		}
		var school api.AttendanceSchoolRecap
		s.BK.Do("GET", "/api/v1/attendance-recap?"+q, nil).Want(http.StatusOK).JSON(&school)
		for _, d := range school.Summary {
			if sum(d.Students)+d.Unrecorded != school.Size {
				t.Errorf("school %s %s: %+v does not add up to %d", q, d.Date, d, school.Size)
			}
		}
		for _, c := range school.Classes {
			if sum(c.Days)+c.DaysUnrecorded != c.Size*c.SchoolDays {
				t.Errorf("school %s %s: %+v + %d != %d x %d", q, c.ClassName, c.Days, c.DaysUnrecorded, c.Size, c.SchoolDays)
			}
		}
	}

	r := recap(t, s.BK, s.ClassA, "period=daily&date=2025-11-04")
	if r.Summary[0].Students != (api.AttendanceCounts{H: 1, A: 1, T: 1}) || r.Summary[0].Unrecorded != 0 {
		t.Errorf("4 Nov %+v", r.Summary[0])
	}
	r = recap(t, s.BK, s.ClassA, "period=weekly&date=2025-11-04")
	// School days 3, 4 and 7 Nov; class A recorded 2 + 3 + 0 of 9.
	if r.SchoolDays != 3 || r.Days != (api.AttendanceCounts{H: 2, S: 1, A: 1, T: 1}) || r.DaysUnrecorded != 4 ||
		r.Summary[0].Students != (api.AttendanceCounts{H: 1, S: 1}) || r.Summary[0].Unrecorded != 1 || r.Summary[4].Unrecorded != 3 {
		t.Errorf("week: %d school days, %+v, %d unrecorded, %+v", r.SchoolDays, r.Days, r.DaysUnrecorded, r.Summary)
	}
	if citra := student(t, r, f.citra); citra.DayCounts != (api.AttendanceCounts{S: 1, A: 1}) || citra.Counts != (api.AttendanceCounts{H: 5, S: 5, I: 5, A: 5}) {
		t.Errorf("Citra's week: days %+v, hours %+v", citra.DayCounts, citra.Counts)
	}
	var school api.AttendanceSchoolRecap
	s.BK.Do("GET", "/api/v1/attendance-recap?period=daily&date=2025-11-04", nil).Want(http.StatusOK).JSON(&school)
	if school.Size != 4 || school.Summary[0].Students != (api.AttendanceCounts{H: 1, A: 2, T: 1}) || school.Summary[0].Unrecorded != 0 ||
		school.Days != (api.AttendanceCounts{H: 1, A: 2, T: 1}) {
		t.Errorf("school 4 Nov: %+v", school)
	}
	r = recap(t, s.BK, s.ClassA, "period=semester&date=2025-12-02")
	if r.Year != 2025 || r.Semester != 1 || r.From != "2025-07-01" || r.To != "2025-12-31" || len(r.Dates) != 184 || r.SchoolDays != 4 {
		t.Errorf("semester head %d S%d %s..%s, %d dates, %d school days", r.Year, r.Semester, r.From, r.To, len(r.Dates), r.SchoolDays)
	}
	// 2 Dec: H1 A1 is a tie, A.
	if budi := student(t, r, f.budi); budi.DayCounts != (api.AttendanceCounts{H: 2, A: 1}) || budi.DaysRecorded != 3 {
		t.Errorf("Budi's semester %+v", budi)
	}
}
