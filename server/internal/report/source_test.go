package report_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tatib/tatib/shared/api"
)

// The report of one source: behaviour (everything but the automatic
// attendance violations; manual is its older name), attendance, or all
// (the default); the PDF's name says which.
func TestSource(t *testing.T) {
	f := newFixture(t)
	s := f.s
	// Budi's first November violation (5 points) and Citra's (10) are
	// automatic attendance ones.
	s.Env.DB.MustExec(`UPDATE violations SET source = 'attendance' WHERE occurred_on IN ('2026-11-03', '2026-11-05')`)
	for _, c := range []struct {
		query  string
		source string
		totals api.RecapTotals
	}{
		{"", api.SourceAll, api.RecapTotals{Violations: 5, Students: 3, Points: 100}},
		{"&source=all", api.SourceAll, api.RecapTotals{Violations: 5, Students: 3, Points: 100}},
		{"&source=behaviour", api.SourceBehaviour, api.RecapTotals{Violations: 3, Students: 2, Points: 85}},
		{"&source=manual", api.SourceBehaviour, api.RecapTotals{Violations: 3, Students: 2, Points: 85}},
		{"&source=attendance", api.SourceAttendance, api.RecapTotals{Violations: 2, Students: 2, Points: 15}},
	} {
		r := get(t, s.BK, "month=2026-11"+c.query)
		if r.Source != c.source || r.Totals != c.totals || len(r.Details) != c.totals.Violations {
			t.Errorf("%q: source %q totals %+v details %d", c.query, r.Source, r.Totals, len(r.Details))
		}
	}
	// A homeroom teacher's class only, of the source.
	if r := get(t, s.TeacherA, "month=2026-11&source=attendance"); r.Totals.Violations != 2 {
		t.Errorf("teacher A, attendance: %+v", r.Totals)
	}
	if r := get(t, s.TeacherB, "month=2026-11&source=attendance"); r.Totals.Violations != 0 {
		t.Errorf("teacher B, attendance: %+v", r.Totals)
	}
	res := s.BK.Do("GET", "/api/v1/reports/violation-recap.pdf?month=2026-11&source=attendance", nil).Want(http.StatusOK)
	if cd := res.Header.Get("Content-Disposition"); !strings.Contains(cd, "rekap-pelanggaran-sekolah-2026-11-01-2026-11-30-absensi.pdf") {
		t.Errorf("content disposition %q", cd)
	}
}
