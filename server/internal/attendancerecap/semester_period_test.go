package attendancerecap

import (
	"net/url"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

func day(s string) schoolday.Date { return schoolday.MustParseDate(s) }

func span(s SemesterSpan) string {
	return s.AcademicYear() + " S" + string(rune('0'+s.Number)) + " " + s.From.String() + ".." + s.To.String()
}

// Semester 1 is the six months from the academic-year start, semester 2
// the six after; a start late in a month ends semester 1 on the last day
// before the same day six months on (or that month's last day).
func TestSemesterBounds(t *testing.T) {
	for _, c := range []struct {
		start string
		year  int
		n     int
		want  string
	}{
		{"07-01", 2026, 1, "2026/2027 S1 2026-07-01..2026-12-31"},
		{"07-01", 2026, 2, "2026/2027 S2 2027-01-01..2027-06-30"},
		{"07-15", 2026, 1, "2026/2027 S1 2026-07-15..2027-01-14"},
		{"07-15", 2026, 2, "2026/2027 S2 2027-01-15..2027-07-14"},
		{"08-31", 2026, 1, "2026/2027 S1 2026-08-31..2027-02-27"},
		{"08-31", 2027, 2, "2027/2028 S2 2028-02-29..2028-08-30"},
		{"", 2026, 1, "2026/2027 S1 2026-07-01..2026-12-31"},
	} {
		p := school.DefaultProfile()
		p.AcademicYearStart = c.start
		if got := span(SemesterBounds(p, c.year, c.n)); got != c.want {
			t.Errorf("%s %d S%d: %s, want %s", c.start, c.year, c.n, got, c.want)
		}
	}
	p := school.DefaultProfile()
	for _, c := range []struct{ date, want string }{
		{"2026-06-30", "2025/2026 S2 2026-01-01..2026-06-30"},
		{"2026-07-01", "2026/2027 S1 2026-07-01..2026-12-31"},
		{"2026-12-31", "2026/2027 S1 2026-07-01..2026-12-31"},
		{"2027-01-01", "2026/2027 S2 2027-01-01..2027-06-30"},
	} {
		if got := span(SemesterOf(p, day(c.date))); got != c.want {
			t.Errorf("%s: %s, want %s", c.date, got, c.want)
		}
	}
	p.AcademicYearStart = "07-15"
	if got := span(SemesterOf(p, day("2027-01-14"))); got != "2026/2027 S1 2026-07-15..2027-01-14" {
		t.Errorf("14 Jan with a 15 July start: %s", got)
	}
	if got := span(SemesterOf(p, day("2026-07-14"))); got != "2025/2026 S2 2026-01-15..2026-07-14" {
		t.Errorf("14 July with a 15 July start: %s", got)
	}
}

// TZ=UTC: 17:30 UTC on 30 June is 1 July in Jakarta, a new academic year;
// 17:00 UTC on 31 December is 1 January, semester 2.
func TestCurrentSemesterIsJakartas(t *testing.T) {
	p := school.DefaultProfile()
	if got := span(SemesterQuery{}.resolve(p, time.Date(2026, 6, 30, 17, 30, 0, 0, time.UTC))); got != "2026/2027 S1 2026-07-01..2026-12-31" {
		t.Errorf("30 June 17:30 UTC: %s", got)
	}
	if got := span(SemesterQuery{}.resolve(p, time.Date(2026, 6, 30, 16, 59, 0, 0, time.UTC))); got != "2025/2026 S2 2026-01-01..2026-06-30" {
		t.Errorf("30 June 16:59 UTC: %s", got)
	}
	if got := span(SemesterQuery{}.resolve(p, time.Date(2025, 12, 31, 17, 0, 0, 0, time.UTC))); got != "2025/2026 S2 2026-01-01..2026-06-30" {
		t.Errorf("31 Dec 17:00 UTC: %s", got)
	}
	// The recap's semester period: the date's semester, Jakarta's today by default.
	q, _ := url.ParseQuery("period=semester")
	per, err := ParsePeriod(q, time.Date(2026, 6, 30, 17, 30, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if r := resolve(p, per); r.Year != 2026 || r.Number != 1 || r.From != day("2026-07-01") || r.To != day("2026-12-31") || len(r.Dates()) != 184 {
		t.Errorf("semester period %+v", r)
	}
}

func TestParseSemester(t *testing.T) {
	for _, c := range []struct {
		query  string
		year   int
		n      int
		fields map[string]string
	}{
		{"", 0, 0, nil},
		{"year=2026&semester=1", 2026, 1, nil},
		{"year=2026/2027&semester=2", 2026, 2, nil},
		{"year=+2026+&semester=2", 2026, 2, nil},
		{"year=2026/2028&semester=1", 0, 0, map[string]string{"year": "attendancerecap.academic_year"}},
		{"year=26&semester=1", 0, 0, map[string]string{"year": "attendancerecap.academic_year"}},
		{"year=1999&semester=1", 0, 0, map[string]string{"year": "attendancerecap.year"}},
		{"year=99999999999999999999&semester=1", 0, 0, map[string]string{"year": "attendancerecap.academic_year"}},
		{"year=2026&semester=3", 0, 0, map[string]string{"semester": "attendancerecap.semester"}},
		{"year=2026&semester=01", 0, 0, map[string]string{"semester": "attendancerecap.semester"}},
		{"year=2026", 0, 0, map[string]string{"semester": "attendancerecap.semester"}},
		{"semester=1", 0, 0, map[string]string{"year": "attendancerecap.academic_year"}},
		{"year=%FF%FE&semester=%FF", 0, 0, map[string]string{"year": "attendancerecap.academic_year", "semester": "attendancerecap.semester"}},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseSemester(q)
		if c.fields == nil {
			if err != nil || got.Year != c.year || got.Number != c.n {
				t.Errorf("%q: %+v %v", c.query, got, err)
			}
			continue
		}
		ae, ok := apperr.As(err)
		if !ok || ae.Code != apperr.Invalid || len(ae.Fields) != len(c.fields) {
			t.Errorf("%q: %v", c.query, err)
			continue
		}
		for f, key := range c.fields {
			if ae.Fields[f].Key != key {
				t.Errorf("%q: field %s: %+v, want %s", c.query, f, ae.Fields[f], key)
			}
		}
	}
}
