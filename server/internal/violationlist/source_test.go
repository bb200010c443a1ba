package violationlist_test

import (
	"net/http"
	"testing"
)

// The source filter narrows to automatic attendance violations (the link a
// grouped attendance notification opens) or to manual ones.
func TestListSource(t *testing.T) {
	f := newFixture(t)
	s := f.s
	if _, err := s.Env.DB.Exec(`UPDATE violations SET source = 'attendance' WHERE id = $1`, f.vJournal); err != nil {
		t.Fatal(err)
	}
	t.Run("Attendance", func(t *testing.T) {
		got := list(t, s.BK, "?source=attendance&from=2025-09-06&to=2025-09-06")
		if !same(ids(got), f.vJournal) {
			t.Errorf("got %v", ids(got))
		}
	})
	t.Run("Manual", func(t *testing.T) {
		got := list(t, s.BK, "?source=manual")
		if !same(ids(got), f.vBudi1, f.vBudi2, f.vCitraOld, f.vCitra, f.vDedi) {
			t.Errorf("got %v", ids(got))
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		e := s.BK.Do("GET", "/api/v1/violations?source=sms", nil).Want(http.StatusUnprocessableEntity).Err()
		if got := e.Error.FieldCodes["source"].Code; got != "violationlist.filter.source" {
			t.Errorf("field code %q", got)
		}
	})
}
