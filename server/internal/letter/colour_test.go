package letter_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/letter"
)

// TestColour: a letter carries its threshold's colour (by level), in the
// list and the detail, and red when its level has no threshold any more.
func TestColour(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.DB.MustExec(`DELETE FROM sp_thresholds`)
	f.env.DB.MustExec(`INSERT INTO sp_thresholds (level, name, min_points, colour) VALUES (1, 'SP 1', 50, 'yellow'), (2, 'SP 2', 100, 'orange')`)
	st := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	at := time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)
	want := map[int64]string{
		f.letter(t, st, f.classA, 1, 55, at):                   "yellow",
		f.letter(t, st, f.classA, 2, 110, at.Add(time.Hour)):   "orange",
		f.letter(t, st, f.classA, 3, 160, at.Add(2*time.Hour)): "red",
	}
	var p page
	f.bk.Do("GET", "/api/v1/warning-letters", nil).Want(200).JSON(&p)
	if len(p.Data) != len(want) {
		t.Fatalf("list: %d letters", len(p.Data))
	}
	for _, l := range p.Data {
		if l.Colour != want[l.ID] {
			t.Errorf("list: letter level %d colour %q, want %q", l.Level, l.Colour, want[l.ID])
		}
	}
	for id, c := range want {
		var l letter.Letter
		f.bk.Do("GET", fmt.Sprintf("/api/v1/warning-letters/%d", id), nil).Want(200).JSON(&l)
		if l.Colour != c {
			t.Errorf("detail: letter level %d colour %q, want %q", l.Level, l.Colour, c)
		}
	}
}
