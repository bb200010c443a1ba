package attendancerecap_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// fixture: class A (teacher A) holds Budi, Citra and Dedi; class B
// (teacher B) holds Eko; Fajar left class A (inactive).
type fixture struct {
	s                      *vltest.School
	budi, citra, dedi, eko int64
	fajar                  int64
}

func newFixture(t *testing.T) fixture {
	s := vltest.New(t)
	return fixture{s: s,
		budi:  s.Student("Budi Santoso", "0051234567", "2401", s.ClassA),
		citra: s.Student("Citra Lestari", "0057654321", "2402", s.ClassA),
		dedi:  s.Student("Dedi Jaya", "0050000001", "2403", s.ClassA),
		eko:   s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB),
		fajar: func() int64 {
			id := s.Student("Fajar Nugroho", "0050000003", "2405", s.ClassA)
			s.Env.DB.MustExec(`UPDATE students SET active = false WHERE id = $1`, id)
			return id
		}(),
	}
}

// mark stores a student's day as the core would: hour i+1 gets hours[i]
// ('-' leaves it belum), then the day's counts in attendance_days are
// recomputed from attendance, so both tables agree.
func mark(t *testing.T, s *vltest.School, student int64, date, hours string) {
	t.Helper()
	for i, c := range hours {
		if c == '-' {
			continue
		}
		s.Env.DB.MustExec(`INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal)
			VALUES ($1, $2, $3, $4, true)
			ON CONFLICT (student_id, date, lesson_hour) DO UPDATE SET status = excluded.status`, student, date, i+1, string(c))
	}
	s.Env.DB.MustExec(`INSERT INTO attendance_days (student_id, date, h, s, i, a, t)
		SELECT $1, $2::date, count(*) FILTER (WHERE status = 'H'), count(*) FILTER (WHERE status = 'S'),
			count(*) FILTER (WHERE status = 'I'), count(*) FILTER (WHERE status = 'A'), count(*) FILTER (WHERE status = 'T')
		FROM attendance WHERE student_id = $1 AND date = $2::date
		ON CONFLICT (student_id, date) DO UPDATE SET h = excluded.h, s = excluded.s, i = excluded.i, a = excluded.a, t = excluded.t`,
		student, date)
}

func recap(t *testing.T, c *apitest.Client, class int64, query string) api.AttendanceRecap {
	t.Helper()
	var out api.AttendanceRecap
	c.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-recap?%s", class, query), nil).Want(http.StatusOK).JSON(&out)
	return out
}

func student(t *testing.T, r api.AttendanceRecap, id int64) api.AttendanceRecapStudent {
	t.Helper()
	for _, st := range r.Students {
		if st.ID == id {
			return st
		}
	}
	t.Fatalf("student %d not in the recap", id)
	return api.AttendanceRecapStudent{}
}

func pct(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%.1f", *p)
}

func TestDaily(t *testing.T) {
	f := newFixture(t)
	mark(t, f.s, f.budi, "2025-11-04", "AAHHHHHHHH")
	mark(t, f.s, f.citra, "2025-11-04", "HHHHHHHHTT")
	mark(t, f.s, f.eko, "2025-11-04", "AAAAAAAAAA")   // another class
	mark(t, f.s, f.fajar, "2025-11-04", "AAAAAAAAAA") // no longer in the class
	mark(t, f.s, f.budi, "2025-11-05", "SSSSSSSSSS")  // another day

	r := recap(t, f.s.BK, f.s.ClassA, "period=daily&date=2025-11-04")
	if r.Period != "daily" || r.From != "2025-11-04" || r.To != "2025-11-04" || len(r.Dates) != 1 || r.LessonHours != 10 || r.ClassName != "X RPL 1" {
		t.Fatalf("recap head: %+v", r)
	}
	if len(r.Students) != 3 || r.Students[0].FullName != "Budi Santoso" || r.Students[2].FullName != "Dedi Jaya" {
		t.Fatalf("students: %+v", r.Students)
	}
	budi := student(t, r, f.budi)
	if len(budi.Hours) != 10 || budi.Hours[0] != "A" || budi.Hours[1] != "A" || budi.Hours[2] != "H" {
		t.Errorf("Budi's hours %q", budi.Hours)
	}
	if budi.Counts != (api.AttendanceCounts{H: 8, A: 2}) || budi.DaysRecorded != 1 || pct(budi.Percentage) != "80.0" {
		t.Errorf("Budi: %+v %s", budi.Counts, pct(budi.Percentage))
	}
	dedi := student(t, r, f.dedi)
	if len(dedi.Hours) != 10 || dedi.Hours[0] != "" || dedi.Percentage != nil || dedi.DaysRecorded != 0 {
		t.Errorf("Dedi (belum): %+v", dedi)
	}
	// Late hours are attendance: Citra 10 of 10.
	if c := student(t, r, f.citra); pct(c.Percentage) != "100.0" {
		t.Errorf("Citra %s", pct(c.Percentage))
	}
	// Students per day status (majority: Budi's 8 H of 10 make an H day,
	// Citra's too), Dedi not recorded: 2 + 1 = the class of 3.
	want := api.AttendanceRecapDay{Date: "2025-11-04", Students: api.AttendanceCounts{H: 2}, Recorded: 2, Unrecorded: 1}
	if len(r.Summary) != 1 || r.Summary[0] != want {
		t.Errorf("summary %+v, want %+v", r.Summary, want)
	}
	if budi.DayCounts != (api.AttendanceCounts{H: 1}) || len(budi.DayStatuses) != 1 || budi.DayStatuses[0] != "H" || r.DayRule != "majority" {
		t.Errorf("Budi's day %+v %q (rule %s)", budi.DayCounts, budi.DayStatuses, r.DayRule)
	}
	// students_with still counts students with at least one hour.
	if r.StudentsWith != (api.AttendanceCounts{H: 2, A: 1, T: 1}) || r.Hours != (api.AttendanceCounts{H: 16, A: 2, T: 2}) {
		t.Errorf("totals %+v / %+v", r.StudentsWith, r.Hours)
	}
	if r.Days != (api.AttendanceCounts{H: 2}) || r.SchoolDays != 1 || r.DaysUnrecorded != 1 {
		t.Errorf("student-days %+v, %d school days, %d unrecorded", r.Days, r.SchoolDays, r.DaysUnrecorded)
	}
}

func TestWeekly(t *testing.T) {
	f := newFixture(t)
	mark(t, f.s, f.budi, "2025-11-02", "AAAAAAAAAA") // Sunday before: last week
	mark(t, f.s, f.budi, "2025-11-03", "AAHHHHHHHH") // Monday
	mark(t, f.s, f.budi, "2025-11-04", "AHHHHHHHHH")
	mark(t, f.s, f.budi, "2025-11-09", "HH--------") // Sunday: this week
	mark(t, f.s, f.budi, "2025-11-10", "SSSSSSSSSS") // next Monday
	mark(t, f.s, f.citra, "2025-11-05", "IIIIIIIIII")

	for _, date := range []string{"2025-11-03", "2025-11-06", "2025-11-09"} {
		r := recap(t, f.s.BK, f.s.ClassA, "period=weekly&date="+date)
		if r.From != "2025-11-03" || r.To != "2025-11-09" || len(r.Dates) != 7 || r.Dates[6] != "2025-11-09" {
			t.Fatalf("%s: week %s..%s %v", date, r.From, r.To, r.Dates)
		}
		budi := student(t, r, f.budi)
		if len(budi.Days) != 7 || budi.Days[0] != (api.AttendanceCounts{H: 8, A: 2}) || budi.Days[1] != (api.AttendanceCounts{H: 9, A: 1}) ||
			budi.Days[6] != (api.AttendanceCounts{H: 2}) || budi.Days[2] != (api.AttendanceCounts{}) {
			t.Errorf("%s: Budi's days %+v", date, budi.Days)
		}
		if budi.Counts != (api.AttendanceCounts{H: 19, A: 3}) || budi.DaysRecorded != 3 || pct(budi.Percentage) != "86.4" {
			t.Errorf("%s: Budi %+v %d %s", date, budi.Counts, budi.DaysRecorded, pct(budi.Percentage))
		}
		// A on two days: still one student with A over the week.
		if r.StudentsWith != (api.AttendanceCounts{H: 1, I: 1, A: 1}) {
			t.Errorf("%s: students with %+v", date, r.StudentsWith)
		}
		// Per day: students per day status (Monday's 2 A hours of 10 are
		// an H day), with the unrecorded, the class of 3.
		if r.Summary[0].Students != (api.AttendanceCounts{H: 1}) || r.Summary[2].Students.I != 1 || r.Summary[2].Recorded != 1 ||
			r.Summary[2].Unrecorded != 2 || r.Summary[3].Recorded != 0 || r.Summary[3].Unrecorded != 3 {
			t.Errorf("%s: summary %+v", date, r.Summary)
		}
		if budi.DayCounts != (api.AttendanceCounts{H: 3}) || fmt.Sprint(budi.DayStatuses) != "[H H     H]" {
			t.Errorf("%s: Budi's days %+v %q", date, budi.DayCounts, budi.DayStatuses)
		}
		// 4 school days (Mon, Tue, Wed, Sun) x 3 students = 12 = 4 recorded + 8 not.
		if r.Days != (api.AttendanceCounts{H: 3, I: 1}) || r.SchoolDays != 4 || r.DaysUnrecorded != 8 {
			t.Errorf("%s: student-days %+v, %d school days, %d unrecorded", date, r.Days, r.SchoolDays, r.DaysUnrecorded)
		}
		if student(t, r, f.citra).Percentage == nil || pct(student(t, r, f.citra).Percentage) != "0.0" {
			t.Errorf("Citra (excused all week) %s", pct(student(t, r, f.citra).Percentage))
		}
	}
}

func TestMonthly(t *testing.T) {
	f := newFixture(t)
	mark(t, f.s, f.budi, "2025-10-31", "AAAAAAAAAA")
	mark(t, f.s, f.budi, "2025-11-01", "HHT")
	mark(t, f.s, f.budi, "2025-11-30", "AHS")
	mark(t, f.s, f.budi, "2025-12-01", "AAAAAAAAAA")
	mark(t, f.s, f.dedi, "2025-11-15", "A")

	r := recap(t, f.s.BK, f.s.ClassA, "period=monthly&date=2025-11-18")
	if r.From != "2025-11-01" || r.To != "2025-11-30" || len(r.Dates) != 30 || len(r.Summary) != 30 {
		t.Fatalf("month %s..%s, %d dates", r.From, r.To, len(r.Dates))
	}
	budi := student(t, r, f.budi)
	// 4 present-or-late of 6 stored hours.
	if budi.Counts != (api.AttendanceCounts{H: 3, S: 1, A: 1, T: 1}) || budi.DaysRecorded != 2 || pct(budi.Percentage) != "66.7" || budi.Days != nil {
		t.Errorf("Budi %+v %d %s", budi.Counts, budi.DaysRecorded, pct(budi.Percentage))
	}
	if r.StudentsWith.A != 2 || r.Hours.A != 2 || r.Summary[29].Students.A != 1 || r.Summary[14].Students.A != 1 {
		t.Errorf("A: %+v %+v", r.StudentsWith, r.Hours)
	}
	// February of a leap year.
	r = recap(t, f.s.BK, f.s.ClassA, "period=monthly&date=2028-02-10")
	if r.To != "2028-02-29" {
		t.Errorf("February 2028 ends %s", r.To)
	}
}

// TZ=UTC: at 23:30 UTC Jakarta is already on the next day; no date means
// Jakarta's today.
func TestDefaultDateIsJakartaToday(t *testing.T) {
	f := newFixture(t)
	jakarta, _ := time.LoadLocation("Asia/Jakarta")
	today := time.Now().In(jakarta).Format(time.DateOnly)
	r := recap(t, f.s.BK, f.s.ClassA, "")
	if r.Period != "daily" || r.From != today {
		t.Errorf("default recap %s %s, want daily %s", r.Period, r.From, today)
	}
	var cal api.AttendanceCalendar
	f.s.BK.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-calendar", f.s.ClassA), nil).Want(http.StatusOK).JSON(&cal)
	if cal.Month != today[:7] {
		t.Errorf("default month %s, want %s", cal.Month, today[:7])
	}
}

func TestValidation(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ path, field, key string }{
		{fmt.Sprintf("/api/v1/classes/%d/attendance-recap?period=yearly", f.s.ClassA), "period", "attendancerecap.period"},
		{fmt.Sprintf("/api/v1/classes/%d/attendance-recap?date=2025-13-01", f.s.ClassA), "date", "attendancerecap.date"},
		{fmt.Sprintf("/api/v1/classes/%d/attendance-recap?date=4/11/2025", f.s.ClassA), "date", "attendancerecap.date"},
		{fmt.Sprintf("/api/v1/classes/%d/attendance-recap?date=1999-12-31", f.s.ClassA), "date", "attendancerecap.year"},
		{"/api/v1/attendance-recap?period=weekly&date=x", "date", "attendancerecap.date"},
		{fmt.Sprintf("/api/v1/classes/%d/attendance-calendar?month=2025-1", f.s.ClassA), "month", "attendancerecap.month"},
		{fmt.Sprintf("/api/v1/classes/%d/attendance-calendar?month=2101-01", f.s.ClassA), "month", "attendancerecap.year"},
		{fmt.Sprintf("/api/v1/students/%d/attendance-calendar?month=2025-13", f.budi), "month", "attendancerecap.month"},
		{fmt.Sprintf("/api/v1/classes/%d/attendance-recap/weekly.xlsx?date=2025-02-30", f.s.ClassA), "date", "attendancerecap.date"},
		{"/api/v1/attendance-recap/weekly.xlsx?class_id=abc", "class_id", "attendancerecap.class_id"},
	} {
		e := f.s.BK.Do("GET", c.path, nil).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Code != "invalid" || e.Error.FieldCodes[c.field].Code != c.key {
			t.Errorf("%s: %+v", c.path, e.Error)
		}
	}
}

func TestScopeAndPermissions(t *testing.T) {
	f := newFixture(t)
	s := f.s
	mark(t, s, f.budi, "2025-11-04", "AAHHHHHHHH")
	mark(t, s, f.eko, "2025-11-04", "HHHHHHHHHH")

	// Teacher A: their class, its students.
	recap(t, s.TeacherA, s.ClassA, "period=weekly&date=2025-11-04")
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/students/%d/attendance-calendar?month=2025-11", f.budi), nil).Want(http.StatusOK)
	// Class B and its student do not exist for teacher A.
	for _, p := range []string{
		fmt.Sprintf("/api/v1/classes/%d/attendance-recap?period=weekly", s.ClassB),
		fmt.Sprintf("/api/v1/classes/%d/attendance-calendar?month=2025-11", s.ClassB),
		fmt.Sprintf("/api/v1/students/%d/attendance-calendar?month=2025-11", f.eko),
		fmt.Sprintf("/api/v1/classes/%d/attendance-recap/weekly.xlsx?date=2025-11-04", s.ClassB),
		fmt.Sprintf("/api/v1/attendance-recap/weekly.xlsx?date=2025-11-04&class_id=%d&class_id=%d", s.ClassA, s.ClassB),
		"/api/v1/classes/999999/attendance-recap",
	} {
		if e := s.TeacherA.Do("GET", p, nil).Want(http.StatusNotFound).Err(); e.Error.Code != "not_found" {
			t.Errorf("%s: %+v", p, e.Error)
		}
	}
	// The school recap: teacher A sees one line, BK every class.
	var mine, all api.AttendanceSchoolRecap
	s.TeacherA.Do("GET", "/api/v1/attendance-recap?period=daily&date=2025-11-04", nil).Want(http.StatusOK).JSON(&mine)
	if len(mine.Classes) != 1 || mine.Classes[0].ClassID != s.ClassA || mine.StudentsWith != (api.AttendanceCounts{H: 1, A: 1}) {
		t.Errorf("teacher A's school recap %+v", mine)
	}
	s.BK.Do("GET", "/api/v1/attendance-recap?period=daily&date=2025-11-04", nil).Want(http.StatusOK).JSON(&all)
	if len(all.Classes) != 3 || all.StudentsWith != (api.AttendanceCounts{H: 2, A: 1}) || all.Summary[0].Recorded != 2 {
		t.Errorf("BK's school recap %+v", all)
	}

	// A role without attendance.view.
	staff := s.Env.As(perm.Staff)
	for _, p := range []string{
		fmt.Sprintf("/api/v1/classes/%d/attendance-recap", s.ClassA),
		"/api/v1/attendance-recap",
		fmt.Sprintf("/api/v1/classes/%d/attendance-calendar", s.ClassA),
		fmt.Sprintf("/api/v1/students/%d/attendance-calendar", f.budi),
		fmt.Sprintf("/api/v1/classes/%d/attendance-recap/weekly.xlsx", s.ClassA),
	} {
		staff.Do("GET", p, nil).Want(http.StatusForbidden)
	}
	// Teacher A without attendance.export: the recap yes, the file no.
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-recap/weekly.xlsx", s.ClassA), nil).Want(http.StatusOK)
	s.Env.DB.MustExec(`INSERT INTO role_permissions (role, permission, granted) VALUES ('wali_kelas', $1, false)
		ON CONFLICT (role, permission) DO UPDATE SET granted = false`, string(perm.AttendanceExport))
	if err := s.Env.Deps.Auth.DropPermissionCache(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-recap/weekly.xlsx", s.ClassA), nil).Want(http.StatusForbidden)
	s.TeacherA.Do("GET", "/api/v1/attendance-recap/weekly.xlsx", nil).Want(http.StatusForbidden)
	recap(t, s.TeacherA, s.ClassA, "period=weekly")
}

func TestCalendars(t *testing.T) {
	f := newFixture(t)
	s := f.s
	// 3 Nov: the whole class; 4 Nov: Budi only; 31 Oct and 1 Dec: other months.
	mark(t, s, f.budi, "2025-10-31", "AAAAAAAAAA")
	mark(t, s, f.budi, "2025-11-03", "HHHHHHHHAT")
	mark(t, s, f.citra, "2025-11-03", "HHHHHHHHHH")
	mark(t, s, f.dedi, "2025-11-03", "SSSSSSSSSS")
	mark(t, s, f.budi, "2025-11-04", "HHHHHHHHHT")
	mark(t, s, f.budi, "2025-11-05", "IH")
	mark(t, s, f.budi, "2025-12-01", "AAAAAAAAAA")

	var c api.AttendanceCalendar
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-calendar?month=2025-11", s.ClassA), nil).Want(http.StatusOK).JSON(&c)
	if c.Month != "2025-11" || c.Prev != "2025-10" || c.Next != "2025-12" || c.ClassSize != 3 || len(c.Days) != 3 {
		t.Fatalf("class calendar %+v", c)
	}
	// Students per day status (issue 22): Budi's 8 H of 10 are an H day.
	d := c.Days[0]
	if d.Date != "2025-11-03" || d.State != "complete" || d.Recorded != 3 || d.Students != (api.AttendanceCounts{H: 2, S: 1}) ||
		d.Hours != (api.AttendanceCounts{H: 18, S: 10, A: 1, T: 1}) {
		t.Errorf("3 Nov %+v", d)
	}
	if c.Days[1].Date != "2025-11-04" || c.Days[1].State != "partial" || c.Days[1].Recorded != 1 {
		t.Errorf("4 Nov %+v", c.Days[1])
	}

	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/students/%d/attendance-calendar?month=2025-11", f.budi), nil).Want(http.StatusOK).JSON(&c)
	if c.StudentID != f.budi || len(c.Days) != 3 {
		t.Fatalf("student calendar %+v", c)
	}
	// The day's status by the school's rule (majority; a tie I-H is I),
	// no longer its worst hour (issue 22).
	if c.Days[0].State != "H" || c.Days[1].State != "H" || c.Days[2].State != "I" || c.Days[0].Hours != (api.AttendanceCounts{H: 8, A: 1, T: 1}) {
		t.Errorf("Budi's days %+v", c.Days)
	}
	// December and January across the year: the neighbours.
	s.BK.Do("GET", fmt.Sprintf("/api/v1/students/%d/attendance-calendar?month=2025-12", f.budi), nil).Want(http.StatusOK).JSON(&c)
	if c.Prev != "2025-11" || c.Next != "2026-01" || len(c.Days) != 1 || c.Days[0].State != "A" {
		t.Errorf("December %+v", c)
	}
}
