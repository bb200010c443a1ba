package xlsximport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/apperr"
)

func TestHeaderMap(t *testing.T) {
	h := Header{
		Aliases: map[string]int{"nama": 0, "name": 0, "a": 1, "b": 2}, Labels: []string{"nama", "a", "b"}, Key: strings.ToLower,
		Required: [][]int{{0}, {1, 2}}, Twice: "t.twice", Missing: "t.missing",
	}
	for _, c := range []struct {
		cells      []string
		twiceCells bool
		want       string // the columns, or the refusal's key and params
	}{
		{cells: []string{"No", "Nama", "", "B"}, want: "[1 -1 3]"},
		{cells: []string{"nama", "Name", "a"}, want: "t.twice column=nama"},
		{cells: []string{"x", "nama", "a", "Name"}, twiceCells: true, want: "t.twice column=nama first=B second=D"},
		{cells: []string{"nama"}, want: "t.missing columns=a/b"},
		{cells: []string{"c"}, want: "t.missing columns=nama, a/b"},
	} {
		h.TwiceCells = c.twiceCells
		cols, err := h.Map(c.cells)
		got := fmt.Sprint(cols)
		if err != nil {
			e, _ := apperr.As(err)
			got = e.Msg.String()
			if e.Code != apperr.Invalid || e.Fields["headers"].String() != got {
				t.Errorf("%v: %v", c.cells, err)
			}
		}
		if got != c.want {
			t.Errorf("%v: got %s, want %s", c.cells, got, c.want)
		}
	}
}
