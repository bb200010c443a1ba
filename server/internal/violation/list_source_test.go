package violation_test

import (
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/xlsxw/xlsxwtest"
)

// The "Sumber" filter: behaviour (everything but the automatic attendance
// violations; manual is its older name), attendance, all, or nothing (all).
// The export narrows the same way, and a homeroom teacher's scope holds
// under every source.
func TestListSource(t *testing.T) {
	f := newFixture(t)
	s := f.s
	// Budi's first and the journal's are automatic attendance violations.
	s.Env.DB.MustExec(`UPDATE violations SET source = 'attendance' WHERE id = ANY(ARRAY[$1, $2]::bigint[])`, f.vJournal, f.vBudi1)
	behaviour := []int64{f.vBudi2, f.vCitraOld, f.vCitra, f.vDedi}
	attendance := []int64{f.vBudi1, f.vJournal}
	every := append(append([]int64{}, behaviour...), attendance...)
	for _, c := range []struct {
		query string
		want  []int64
	}{
		{"?source=behaviour", behaviour},
		{"?source=manual", behaviour},
		{"?source=attendance", attendance},
		{"?source=all", every},
		{"", every},
		// The link of a grouped attendance notification.
		{"?source=attendance&from=2025-09-06&to=2025-09-06", []int64{f.vJournal}},
	} {
		got := list(t, s.BK, c.query)
		if !same(ids(got), c.want...) || got.Meta.Total != len(c.want) {
			t.Errorf("%q: got %v (total %d), want %v", c.query, ids(got), got.Meta.Total, c.want)
		}
	}
	t.Run("Export", func(t *testing.T) {
		res := s.BK.Do("GET", "/api/v1/violations/export?source=attendance&sort=occurred_at", nil).Want(http.StatusOK)
		py := xlsxwtest.Openpyxl(t, res.Body)
		if len(py.Rows) != 3 || py.Rows[1][4] != "Budi Santoso" || py.Rows[2][4] != "Dedi 100%_Jaya" {
			t.Errorf("attendance export: %#v", py.Rows)
		}
	})
	t.Run("HomeroomScope", func(t *testing.T) {
		if got := list(t, s.TeacherA, "?source=attendance"); !same(ids(got), f.vBudi1) {
			t.Errorf("teacher A, attendance: %v", ids(got))
		}
		if got := list(t, s.TeacherA, "?source=behaviour"); !same(ids(got), f.vBudi2, f.vCitraOld) {
			t.Errorf("teacher A, behaviour: %v", ids(got))
		}
		if got := list(t, s.TeacherB, "?source=attendance"); len(got.Data) != 0 {
			t.Errorf("teacher B, attendance: %v", ids(got))
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		for _, path := range []string{"/api/v1/violations?source=sms", "/api/v1/violations/export?source=Behaviour"} {
			e := s.BK.Do("GET", path, nil).Want(http.StatusUnprocessableEntity).Err()
			if got := e.Error.FieldCodes["source"].Code; got != "violationlist.filter.source" {
				t.Errorf("%s: field code %q", path, got)
			}
		}
	})
}
