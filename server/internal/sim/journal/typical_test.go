package journalsim_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/sim/journal"
	"github.com/tatib/tatib/server/internal/sim/studentaffairs"
)

// TypicalDay is deterministic per (seed, student, date) and independent of
// who else is in the list; punctual students are never late or absent
// without a word; a chronic absentee misses at most eight of any ten
// school days (the bound the demo's "exactly one SP 3" rests on); and over
// a term the school's rates are a real school's.
func TestTypicalDay(t *testing.T) {
	t.Parallel()
	const seed = 2026
	students := journalsim.FromSchool(schoolsim.Generate(schoolsim.Options{Seed: seed, Students: 600}))
	a := journalsim.TypicalDay(students, "2026-11-04", seed, 10)
	if b := journalsim.TypicalDay(students, "2026-11-04", seed, 10); !slices.EqualFunc(a, b, sameEntry) {
		t.Fatal("two calls differ")
	}
	if one := journalsim.TypicalDay(students[7:8], "2026-11-04", seed, 10); !slices.EqualFunc(one, a[70:80], sameEntry) {
		t.Fatalf("a student's day depends on the list: %+v / %+v", one, a[70:80])
	}
	if len(a) != len(students)*10 || a[0].LessonHour != 1 || a[9].LessonHour != 10 {
		t.Fatalf("%d entries", len(a))
	}

	count := map[string]int{}
	total := 0
	// Twelve windows of ten school days, a week apart.
	for w := range 12 {
		days := journalsim.SchoolDays(time.Date(2026, 11, 6, 12, 0, 0, 0, time.UTC).AddDate(0, 0, -7*w), 10)
		absentDays := map[int64]int{}
		for _, d := range days {
			day := journalsim.TypicalDay(students, d, seed, 10)
			for i, e := range day {
				if w == 0 {
					count[e.Status]++
					total++
				}
				h := journalsim.HabitOf(seed, e.SourceStudentID)
				if h.Punctual && (e.Status == journalsim.Alpha || e.Status == journalsim.Late) {
					t.Fatalf("punctual student %d: %+v", e.SourceStudentID, e)
				}
				if i%10 == 0 && h.OftenAbsent && !slices.ContainsFunc(day[i:i+10], func(e journalsim.Entry) bool { return e.Status != journalsim.Alpha }) {
					absentDays[e.SourceStudentID]++
				}
			}
		}
		for id, n := range absentDays {
			if n > 8 {
				t.Fatalf("chronic absentee %d missed %d of the ten days from %s", id, n, days[0])
			}
		}
	}
	pct := func(s string) float64 { return 100 * float64(count[s]) / float64(total) }
	if p, a := pct(journalsim.Present), pct(journalsim.Alpha); p < 93 || p > 97 || a < 0.8 || a > 2.2 {
		t.Errorf("hours: %.1f %% present, %.1f %% alpha (%v)", p, a, count)
	}
}

func sameEntry(a, b journalsim.Entry) bool {
	return a.SourceStudentID == b.SourceStudentID && a.Date == b.Date && a.LessonHour == b.LessonHour && a.Status == b.Status &&
		(a.Notes == nil) == (b.Notes == nil) && (a.Notes == nil || *a.Notes == *b.Notes)
}
