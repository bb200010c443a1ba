package earlywarning_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/earlywarning"
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

// today is the Jakarta day the server evaluates the rules on.
func today() time.Time {
	y, m, d := time.Now().In(jakarta).Date()
	return time.Date(y, m, d, 12, 0, 0, 0, jakarta)
}

// day is today minus k days, as YYYY-MM-DD.
func day(k int) string { return today().AddDate(0, 0, -k).Format(time.DateOnly) }

// at is noon (Jakarta) k days ago.
func at(k int) time.Time { return today().AddDate(0, 0, -k) }

// absent writes a student's per-day counts: "A" one absent hour (of 10),
// "H" a present day.
func absent(t *testing.T, s *vltest.School, student int64, k int, status string) {
	t.Helper()
	a, h := 0, 10
	if status == "A" {
		a, h = 1, 9
	}
	s.Env.DB.MustExec(`INSERT INTO attendance_days (student_id, date, h, a) VALUES ($1, $2::date, $3, $4)`, student, day(k), h, a)
}

// followUp adds a handling on handledK days ago with a follow-up followK
// days ago (negative: in the future).
func followUp(t *testing.T, s *vltest.School, violation int64, handledK, followK int) {
	t.Helper()
	h := s.Handling(violation, day(handledK))
	s.Env.DB.MustExec(`UPDATE handlings SET follow_up_on = $2::date WHERE id = $1`, h, day(followK))
}

// list GETs /early-warnings?q as c.
func list(t *testing.T, c *apitest.Client, q string) api.EarlyWarningPage {
	t.Helper()
	var out api.EarlyWarningPage
	c.Do("GET", "/api/v1/early-warnings?"+q, nil).Want(http.StatusOK).JSON(&out)
	return out
}

// fixture is a school where each kind has a case that is listed and one
// that is not.
type fixture struct {
	s                            *vltest.School
	budi, citra, dedi, eko, gita int64
	// violations with follow-ups
	dueToday, overdue, doneLater, resolved, future int64
}

func newFixture(t *testing.T) fixture {
	s := vltest.New(t)
	f := fixture{s: s,
		budi:  s.Student("Budi Santoso", "0051234567", "2401", s.ClassA),
		citra: s.Student("Citra Lestari", "0057654321", "2402", s.ClassA),
		dedi:  s.Student("Dedi Jaya", "0050000001", "2403", s.ClassA),
		eko:   s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB),
		gita:  s.Student("Gita Permata", "0050000004", "2406", s.ClassA),
	}
	// Attendance. Nobody's attendance was recorded 2 days ago: not a
	// school day. Gita is present every school day (so each is one).
	for _, k := range []int{0, 1, 3, 4, 5} {
		absent(t, s, f.gita, k, "H")
	}
	// Budi: A on 4, 3 and 1 days ago (the day between is no school day):
	// a streak of 3, not reaching today.
	for _, k := range []int{4, 3, 1} {
		absent(t, s, f.budi, k, "A")
	}
	// Dedi: A, A, then present, then A today: broken by the present day.
	absent(t, s, f.dedi, 4, "A")
	absent(t, s, f.dedi, 3, "A")
	absent(t, s, f.dedi, 1, "H")
	absent(t, s, f.dedi, 0, "A")
	// Eko (class B): A on 3, 1 and today: an ongoing streak.
	for _, k := range []int{3, 1, 0} {
		absent(t, s, f.eko, k, "A")
	}

	// Points this year (thresholds SP 1 50, SP 2 100, SP 3 150; N 10).
	// Budi 45: 5 to SP 1. Citra 55 with SP 1 issued: 45 to SP 2. Eko 92
	// with SP 1 issued: 8 to SP 2.
	budiV := s.Violation(vltest.V{Student: f.budi, Type: s.TypeHeavy, Points: 45, At: at(0)})
	citraV := s.Violation(vltest.V{Student: f.citra, Type: s.TypeHeavy, Points: 55, At: at(1)})
	s.Env.DB.MustExec(`INSERT INTO warning_letters (student_id, level, name, min_points, academic_year_start, points, violation_id)
		SELECT $1, 1, 'SP 1', 50, $2::date, 55, $3`, f.citra, yearStart(), citraV)
	ekoV := s.Violation(vltest.V{Student: f.eko, Type: s.TypeHeavy, Points: 92, At: at(2)})
	s.Env.DB.MustExec(`INSERT INTO warning_letters (student_id, level, name, min_points, academic_year_start, points, violation_id)
		SELECT $1, 1, 'SP 1', 50, $2::date, 92, $3`, f.eko, yearStart(), ekoV)

	// Repeats: Dedi late 3 times within 30 days (29 days ago is inside);
	// Citra late 3 times but the first 30 days ago (outside).
	for _, k := range []int{1, 10, 29} {
		s.Violation(vltest.V{Student: f.dedi, Type: s.TypeLight2, Points: 1, At: at(k)})
	}
	for _, k := range []int{1, 10, 30} {
		s.Violation(vltest.V{Student: f.citra, Type: s.TypeLight2, Points: 1, At: at(k)})
	}

	// Follow-ups.
	f.dueToday = budiV
	followUp(t, s, budiV, 3, 0)
	f.overdue = ekoV
	followUp(t, s, ekoV, 5, 3)
	// Followed up: a newer handling without a follow-up date.
	f.doneLater = s.Violation(vltest.V{Student: f.gita, Type: s.TypeLight1, Points: 1, At: at(8)})
	followUp(t, s, f.doneLater, 7, 5)
	s.Handling(f.doneLater, day(1))
	f.resolved = s.Violation(vltest.V{Student: f.gita, Type: s.TypeHeavy, Points: 1, At: at(9), Status: "resolved"})
	followUp(t, s, f.resolved, 7, 2)
	f.future = s.Violation(vltest.V{Student: f.gita, Type: s.TypeLight2, Points: 1, At: at(9)})
	followUp(t, s, f.future, 2, -1)
	return f
}

// yearStart is the first day of the academic year (07-01) containing today.
func yearStart() string {
	t := today()
	y := t.Year()
	if t.Month() < time.July {
		y--
	}
	return fmt.Sprintf("%04d-07-01", y)
}

// rowsOf keeps the rows of kind, as "student name" strings in order.
func names(p api.EarlyWarningPage, kind string) []string {
	var out []string
	for _, w := range p.Data {
		if w.Kind == kind {
			out = append(out, w.StudentName)
		}
	}
	return out
}

func find(t *testing.T, p api.EarlyWarningPage, kind string, student int64) api.EarlyWarning {
	t.Helper()
	for _, w := range p.Data {
		if w.Kind == kind && w.StudentID == student {
			return w
		}
	}
	t.Fatalf("no %s row for student %d in %+v", kind, student, p.Data)
	return api.EarlyWarning{}
}

func eq(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestKinds(t *testing.T) {
	f := newFixture(t)
	p := list(t, f.s.BK, "per_page=100")
	want := api.EarlyWarningCounts{NearLevel: 2, AbsentStreak: 2, RepeatType: 1, FollowUpDue: 2, Total: 3}
	if p.Counts != want || p.Meta.Total != 7 || len(p.Data) != 7 || p.Threshold != 10 {
		t.Fatalf("counts %+v total %d rows %d threshold %d", p.Counts, p.Meta.Total, len(p.Data), p.Threshold)
	}
	if p.LatestSchoolDay == nil || *p.LatestSchoolDay != day(0) {
		t.Errorf("latest school day %v", p.LatestSchoolDay)
	}
	// Order: follow-ups (most overdue first), streaks (ongoing first),
	// repeats, near a level (fewest to go).
	var kinds []string
	for _, w := range p.Data {
		kinds = append(kinds, w.Kind)
	}
	if !eq(kinds, []string{"follow_up_due", "follow_up_due", "absent_streak", "absent_streak", "repeat_type", "near_level", "near_level"}) {
		t.Errorf("order %v", kinds)
	}

	t.Run("near_level", func(t *testing.T) {
		if n := names(p, "near_level"); !eq(n, []string{"Budi Santoso", "Eko Prasetyo"}) {
			t.Fatalf("near: %v", n)
		}
		b := find(t, p, "near_level", f.budi)
		if *b.Points != 45 || *b.NextLevel != 1 || b.NextLevelName != "SP 1" || *b.PointsToNext != 5 || b.StudentNIS != "2401" || b.StudentNISN != "0051234567" || b.ClassName != "X RPL 1" {
			t.Errorf("Budi: %+v", b)
		}
		if b.Action != (api.EarlyWarningAction{Kind: "record_handling", Path: fmt.Sprintf("/violations/%d", f.dueToday)}) {
			t.Errorf("Budi's action %+v", b.Action)
		}
		// Eko has SP 1: his next level is SP 2.
		if e := find(t, p, "near_level", f.eko); *e.NextLevel != 2 || *e.PointsToNext != 8 || *e.Points != 92 {
			t.Errorf("Eko: %+v", e)
		}
	})
	t.Run("absent_streak", func(t *testing.T) {
		// Dedi's A days are broken by a present day; Budi's are not broken
		// by the day nobody's attendance was recorded.
		if n := names(p, "absent_streak"); !eq(n, []string{"Eko Prasetyo", "Budi Santoso"}) {
			t.Fatalf("streaks: %v", n)
		}
		b := find(t, p, "absent_streak", f.budi)
		if *b.StreakFrom != day(4) || *b.StreakTo != day(1) || *b.StreakDays != 3 || b.Ongoing {
			t.Errorf("Budi: %v..%v %d %v", *b.StreakFrom, *b.StreakTo, *b.StreakDays, b.Ongoing)
		}
		if b.Action != (api.EarlyWarningAction{Kind: "open_student", Path: fmt.Sprintf("/students/%d", f.budi)}) {
			t.Errorf("Budi's action %+v", b.Action)
		}
		if e := find(t, p, "absent_streak", f.eko); *e.StreakFrom != day(3) || *e.StreakTo != day(0) || !e.Ongoing {
			t.Errorf("Eko: %+v", e)
		}
	})
	t.Run("repeat_type", func(t *testing.T) {
		d := find(t, p, "repeat_type", f.dedi)
		if d.TypeName != "Terlambat" || *d.TypeID != f.s.TypeLight2 || !eq(d.Dates, []string{day(29), day(10), day(1)}) {
			t.Errorf("Dedi: %+v", d)
		}
		if d.Action.Kind != "record_handling" || d.Action.Path != fmt.Sprintf("/violations/%d", *d.ViolationID) {
			t.Errorf("Dedi's action %+v", d.Action)
		}
	})
	t.Run("follow_up_due", func(t *testing.T) {
		e := p.Data[0]
		if e.StudentID != f.eko || *e.ViolationID != f.overdue || *e.FollowUpOn != day(3) || *e.OverdueDays != 3 || *e.OccurredOn != day(2) || e.TypeName != "Berkelahi" {
			t.Errorf("first follow-up %+v", e)
		}
		b := p.Data[1]
		if b.StudentID != f.budi || *b.ViolationID != f.dueToday || *b.OverdueDays != 0 {
			t.Errorf("second follow-up %+v", b)
		}
		if b.Action != (api.EarlyWarningAction{Kind: "record_handling", Path: fmt.Sprintf("/violations/%d", f.dueToday)}) {
			t.Errorf("action %+v", b.Action)
		}
	})
	t.Run("OneKind", func(t *testing.T) {
		k := list(t, f.s.BK, "kind=absent_streak")
		if k.Counts != want || k.Meta.Total != 2 || !eq(names(k, "absent_streak"), []string{"Eko Prasetyo", "Budi Santoso"}) || len(k.Data) != 2 {
			t.Errorf("kind=absent_streak: %+v", k)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		k := list(t, f.s.BK, "per_page=2&page=2")
		if len(k.Data) != 2 || k.Data[0].Kind != "absent_streak" || k.Meta.Total != 7 || k.Meta.LastPage != 4 {
			t.Errorf("page 2: %+v", k)
		}
		if k := list(t, f.s.BK, "per_page=2&page=9"); len(k.Data) != 0 || k.Meta.Total != 7 {
			t.Errorf("past the end: %+v", k.Meta)
		}
	})
	t.Run("Class", func(t *testing.T) {
		k := list(t, f.s.BK, fmt.Sprintf("class_id=%d", f.s.ClassB))
		if k.Counts != (api.EarlyWarningCounts{NearLevel: 1, AbsentStreak: 1, FollowUpDue: 1, Total: 1}) {
			t.Errorf("class B: %+v", k.Counts)
		}
		f.s.BK.Do("GET", "/api/v1/early-warnings?class_id=999999", nil).Want(http.StatusNotFound)
		e := f.s.BK.Do("GET", "/api/v1/early-warnings?kind=soon", nil).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["kind"].Code != "earlywarning.kind.choose" {
			t.Errorf("kind: %+v", e.Error)
		}
		f.s.BK.Do("GET", "/api/v1/early-warnings?class_id=x", nil).Want(http.StatusUnprocessableEntity)
	})
}

func TestScope(t *testing.T) {
	f := newFixture(t)
	a := list(t, f.s.TeacherA, "per_page=100")
	if a.Counts != (api.EarlyWarningCounts{NearLevel: 1, AbsentStreak: 1, RepeatType: 1, FollowUpDue: 1, Total: 2}) {
		t.Errorf("teacher A: %+v", a.Counts)
	}
	for _, w := range a.Data {
		if w.StudentID == f.eko {
			t.Errorf("teacher A sees Eko: %+v", w)
		}
	}
	b := list(t, f.s.TeacherB, "per_page=100")
	if b.Counts != (api.EarlyWarningCounts{NearLevel: 1, AbsentStreak: 1, FollowUpDue: 1, Total: 1}) || len(b.Data) != 3 {
		t.Errorf("teacher B: %+v", b.Counts)
	}
	// Another class by parameter: 404, never a different list.
	f.s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/early-warnings?class_id=%d", f.s.ClassB), nil).Want(http.StatusNotFound)
	if k := list(t, f.s.TeacherA, fmt.Sprintf("class_id=%d", f.s.ClassA)); k.Counts != a.Counts {
		t.Errorf("own class: %+v", k.Counts)
	}
	// A homeroom teacher of no class sees nothing.
	none := f.s.Env.As(perm.WaliKelas)
	if k := list(t, none, ""); k.Counts != (api.EarlyWarningCounts{}) || len(k.Data) != 0 {
		t.Errorf("teacher without a class: %+v", k)
	}
	// Without the permission.
	f.s.Env.As(perm.Staff).Do("GET", "/api/v1/early-warnings", nil).Want(http.StatusForbidden)
	f.s.Env.Anonymous().Do("GET", "/api/v1/early-warnings", nil).Want(http.StatusUnauthorized)

	// Counts (the dashboard's call) agrees with the page.
	ctx := context.Background()
	if c, err := earlywarning.Counts(ctx, f.s.Env.DB, f.s.TeacherA.UserID, time.Now()); err != nil || c != a.Counts {
		t.Errorf("Counts(teacher A) %+v %v", c, err)
	}
	if c, err := earlywarning.Counts(ctx, f.s.Env.DB, 0, time.Now()); err != nil || c.Total != 3 {
		t.Errorf("Counts(school) %+v %v", c, err)
	}
}

func TestSetting(t *testing.T) {
	f := newFixture(t)
	admin := f.s.Env.As(perm.Admin)
	var prof map[string]any
	admin.Do("GET", "/api/v1/settings/school", nil).Want(http.StatusOK).JSON(&prof)
	if prof["early_warning_points"] != float64(10) {
		t.Errorf("default %v", prof["early_warning_points"])
	}
	for _, bad := range []int{-1, 1001} {
		e := admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "early_warning_points": bad}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["early_warning_points"].Code != "earlywarning.setting.range" {
			t.Errorf("%d: %+v", bad, e.Error)
		}
	}
	admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "early_warning_points": 50}).Want(http.StatusOK).JSON(&prof)
	if prof["early_warning_points"] != float64(50) {
		t.Errorf("saved %v", prof["early_warning_points"])
	}
	// N 50: Citra (42 to SP 2), Dedi and Gita (47 to SP 1) join; students
	// without points this year never do.
	p := list(t, f.s.BK, "kind=near_level")
	if p.Threshold != 50 || !eq(names(p, "near_level"), []string{"Budi Santoso", "Eko Prasetyo", "Citra Lestari", "Dedi Jaya", "Gita Permata"}) {
		t.Errorf("N 50: %d %v", p.Threshold, names(p, "near_level"))
	}
	nobody := f.s.Student("Hana Putri", "0050000005", "2407", f.s.ClassA)
	admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "early_warning_points": 1000}).Want(http.StatusOK)
	for _, w := range list(t, f.s.BK, "kind=near_level").Data {
		if w.StudentID == nobody {
			t.Errorf("a student without points is listed: %+v", w)
		}
	}
	// A profile saved before the setting existed reads as 10.
	f.s.Env.DB.MustExec(`UPDATE settings SET value = value - 'early_warning_points' WHERE key = 'school'`)
	if p := list(t, f.s.BK, ""); p.Threshold != 10 {
		t.Errorf("old profile: %d", p.Threshold)
	}
}
