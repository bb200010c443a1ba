package school_test

import (
	"testing"

	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

func TestYearStartOf(t *testing.T) {
	for _, c := range []struct {
		mmdd, day, want string
	}{
		{"", "2026-11-27", "2026-07-01"},
		{"", "2026-06-30", "2025-07-01"},
		{"07-01", "2026-07-01", "2026-07-01"},
		{"01-01", "2026-01-01", "2026-01-01"},
		{"01-01", "2025-12-31", "2025-01-01"},
		{"07-15", "2026-07-14", "2025-07-15"},
		{"bad", "2026-11-27", "2026-07-01"},
		{"02-29", "2026-11-27", "2026-07-01"}, // no 29 February in 2026: 1 July
		{"02-29", "2028-03-01", "2028-02-29"},
	} {
		p := school.Profile{AcademicYearStart: c.mmdd}
		d := schoolday.MustParseDate(c.day)
		got := p.YearStartOf(d)
		if got.String() != c.want {
			t.Errorf("%q on %s: %s, want %s", c.mmdd, c.day, got, c.want)
		}
	}
}
