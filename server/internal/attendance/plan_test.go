package attendance

import (
	"fmt"
	"testing"

	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// TestPlanAuto is the rule of automatic violations without a database.
func TestPlanAuto(t *testing.T) {
	kinds := map[string]autoType{api.AutoAlpha: {ID: 1, Points: 15}, api.AutoLate: {ID: 2, Points: 2}}
	year := schoolday.NewDate(2026, 7, 1)
	yearOf := func(string) (schoolday.Date, error) { return year, nil }
	ex := func(id int64, kind string, pts, hours int) existingAuto {
		return existingAuto{ID: id, StudentID: 5, Date: "2026-11-03", Kind: kind, Points: pts, Hours: hours}
	}
	show := func(plan []change) string {
		out := ""
		for _, c := range plan {
			out += fmt.Sprintf("%s %s #%d %+d=%d/%dh;", c.kind, c.action, c.id, c.delta, c.points, c.hours)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		a, t int
		have []existingAuto
		want string
	}{
		{"NothingNothing", 0, 0, nil, ""},
		{"NewAlphaAndLate", 3, 1, nil, "alpha auto_record #0 +5=5/3h;late auto_record #0 +2=2/1h;"},
		{"OneHourIsTwoPoints", 1, 0, nil, "alpha auto_record #0 +2=2/1h;"},
		{"HoursChangeUpdates", 10, 0, []existingAuto{ex(7, api.AutoAlpha, 5, 3)}, "alpha auto_update #7 +10=15/10h;"},
		{"SameHoursNothing", 3, 0, []existingAuto{ex(7, api.AutoAlpha, 5, 3)}, ""},
		{"NoHoursDeletes", 0, 0, []existingAuto{ex(7, api.AutoAlpha, 5, 3)}, "alpha auto_delete #7 -5=0/0h;"},
		{"HandledKept", 0, 0, []existingAuto{func() existingAuto { e := ex(7, api.AutoAlpha, 5, 3); e.Handled = true; return e }()},
			"alpha keep #7 +0=5/3h;"},
		{"UnbackedStaysUnbacked", 0, 0, []existingAuto{func() existingAuto { e := ex(7, api.AutoLate, 2, 1); e.Unbacked = true; return e }()}, ""},
		{"UnbackedBackedAgain", 0, 1, []existingAuto{func() existingAuto { e := ex(7, api.AutoLate, 2, 1); e.Unbacked = true; return e }()},
			"late auto_update #7 +0=2/1h;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := map[autoKey]existingAuto{}
			for _, e := range tc.have {
				have[autoKey{pair{e.StudentID, e.Date}, e.Kind}] = e
			}
			plan, err := planAuto([]dayHours{{StudentID: 5, Date: "2026-11-03", A: tc.a, T: tc.t}}, have, kinds, yearOf)
			if err != nil {
				t.Fatal(err)
			}
			if got := show(plan); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	t.Run("ErrTypeMissing", func(t *testing.T) {
		if _, err := planAuto([]dayHours{{StudentID: 5, Date: "2026-11-03", T: 1}}, nil, map[string]autoType{}, yearOf); err == nil {
			t.Fatal("no error without the late type")
		}
	})
	t.Run("SortedByStudentDateKind", func(t *testing.T) {
		plan, _ := planAuto([]dayHours{{StudentID: 9, Date: "2026-11-04", A: 1}, {StudentID: 5, Date: "2026-11-05", T: 1, A: 1},
			{StudentID: 5, Date: "2026-11-03", T: 1}}, nil, kinds, yearOf)
		var got string
		for _, c := range plan {
			got += fmt.Sprintf("%d %s %s;", c.student, c.date, c.kind)
		}
		if want := "5 2026-11-03 late;5 2026-11-05 alpha;5 2026-11-05 late;9 2026-11-04 alpha;"; got != want {
			t.Fatalf("order %s", got)
		}
	})
}
