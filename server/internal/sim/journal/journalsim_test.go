package journalsim

import (
	"reflect"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/sim/studentaffairs"
)

func TestDayShape(t *testing.T) {
	sch := schoolsim.Generate(schoolsim.Options{Seed: 2026, Students: 1500, AcademicYearStart: 2026})
	students := FromSchool(sch)
	entries := Day(students, "2026-11-02", 1, 10)
	if len(entries) != len(students)*10 {
		t.Fatalf("%d entries for %d students", len(entries), len(students))
	}
	count := map[string]int{}
	firstHourLate, wholeDayA := 0, 0
	for i, e := range entries {
		count[e.Status]++
		if e.Status == Late && e.LessonHour <= 2 {
			firstHourLate++
		}
		if e.LessonHour == 1 && e.Status == Alpha && entries[i+9].Status == Alpha && entries[i+5].Status == Alpha {
			wholeDayA++
		}
		if e.Date != "2026-11-02" || e.LessonHour < 1 || e.LessonHour > 10 {
			t.Fatalf("entry %d: %+v", i, e)
		}
	}
	share := func(s string) float64 { return float64(count[s]) / float64(len(entries)) }
	t.Logf("A %.3f T %.3f S %.3f I %.3f H %.3f; late at hour 1: %d of %d T; whole-day A students: %d",
		share(Alpha), share(Late), share(Sick), share(Excused), share(Present), firstHourLate, count[Late], wholeDayA)
	if a := share(Alpha); a < 0.08 || a > 0.12 {
		t.Errorf("A share %.3f, want about 10%%", a)
	}
	if l := share(Late); l < 0.035 || l > 0.065 {
		t.Errorf("T share %.3f, want about 5%%", l)
	}
	if firstHourLate*2 < count[Late] {
		t.Errorf("late mostly at the start of the day: %d of %d", firstHourLate, count[Late])
	}
	if wholeDayA < 20 {
		t.Errorf("only %d whole-day alphas", wholeDayA)
	}
	// Deterministic, and a student's day does not depend on the others.
	if again := Day(students, "2026-11-02", 1, 10); !reflect.DeepEqual(again, entries) {
		t.Error("same input, different day")
	}
	if one := Day(students[7:8], "2026-11-02", 1, 10); !reflect.DeepEqual(one, entries[70:80]) {
		t.Error("a student's day changed with the list")
	}
	if other := Day(students, "2026-11-03", 1, 10); reflect.DeepEqual(other[:100], entries[:100]) {
		t.Error("two dates gave the same day")
	}
}

func TestSchoolDays(t *testing.T) {
	// 23:30 UTC on Friday 2026-11-06 is Saturday in Jakarta.
	now := time.Date(2026, 11, 6, 23, 30, 0, 0, time.UTC)
	got := SchoolDays(now, 6)
	want := []string{"2026-10-30", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if d := Today(time.Date(2026, 11, 1, 23, 30, 0, 0, time.UTC)); d != "2026-11-02" {
		t.Errorf("today %s", d)
	}
	u := UnknownStudents(3, 5)
	if len(u) != 3 || u[0].SourceID == u[1].SourceID || u[0].SourceID < 900_000_000 {
		t.Errorf("unknown %+v", u)
	}
}
