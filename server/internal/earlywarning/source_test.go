package earlywarning_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/followup"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// attend writes a student's day: "H" present, "A" one absent hour, "T"
// one late hour (of 10).
func attend(s *vltest.School, student int64, k int, status string) {
	h, a, late := 10, 0, 0
	switch status {
	case "A":
		h, a = 9, 1
	case "T":
		h, late = 9, 1
	}
	s.Env.DB.MustExec(`INSERT INTO attendance_days (student_id, date, h, a, t) VALUES ($1, $2::date, $3, $4, $5)`, student, day(k), h, a, late)
}

type sourceFixture struct {
	s                             *vltest.School
	budi, citra, dedi, eko, hana  int64
	hanaOverdue, dediFollowUp     int64
	membolos, dediLatest, dediOld int64
}

// The attendance rules and the behaviour ones apart. School days are the
// latest 12 days (Gita is present on each). Budi is absent 3 school days
// in a row (3..1 days ago), Citra 4 (3..0, ongoing). Dedi is late on 5 of
// the latest 10 school days (automatic late violations, one with a
// follow-up due); Eko (class B) on 4 of them and once before. Hana
// repeats two behaviour types (4 and 3 times) and has two follow-ups due.
func newSourceFixture(t *testing.T) sourceFixture {
	s := vltest.New(t)
	f := sourceFixture{s: s,
		budi:  s.Student("Budi Santoso", "0051234567", "2401", s.ClassA),
		citra: s.Student("Citra Lestari", "0057654321", "2402", s.ClassA),
		dedi:  s.Student("Dedi Jaya", "0050000001", "2403", s.ClassA),
		eko:   s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB),
		hana:  s.Student("Hana Putri", "0050000005", "2407", s.ClassA),
	}
	gita := s.Student("Gita Permata", "0050000004", "2406", s.ClassA)
	for k := 0; k < 12; k++ {
		attend(s, gita, k, "H")
	}
	for _, k := range []int{3, 2, 1} {
		attend(s, f.budi, k, "A")
	}
	attend(s, f.budi, 0, "H")
	for _, k := range []int{3, 2, 1, 0} {
		attend(s, f.citra, k, "A")
	}
	for _, k := range []int{8, 6, 4, 2, 0} {
		attend(s, f.dedi, k, "T")
		v := s.Violation(vltest.V{Student: f.dedi, Type: s.TypeLight2, Points: 2, At: at(k)})
		s.Env.DB.MustExec(`UPDATE violations SET source = 'attendance', auto_kind = 'late' WHERE id = $1`, v)
		switch k {
		case 8:
			f.dediOld = v
		case 0:
			f.dediLatest = v
		}
	}
	f.dediFollowUp = f.dediOld
	followUp(t, s, f.dediOld, 7, 1)
	for _, k := range []int{10, 7, 5, 3, 1} {
		attend(s, f.eko, k, "T")
	}
	if err := s.Env.DB.Get(&f.membolos, `INSERT INTO violation_types (name, slug, points, category_id) VALUES ('Membolos', 'membolos', 5, $1) RETURNING id`, s.CatLight); err != nil {
		t.Fatal(err)
	}
	var hanaV []int64
	for _, k := range []int{20, 12, 6, 2} {
		hanaV = append(hanaV, s.Violation(vltest.V{Student: f.hana, Type: f.membolos, Points: 1, At: at(k)}))
	}
	for _, k := range []int{15, 9, 4} {
		hanaV = append(hanaV, s.Violation(vltest.V{Student: f.hana, Type: s.TypeHeavy, Points: 1, At: at(k)}))
	}
	f.hanaOverdue = hanaV[0]
	followUp(t, s, hanaV[0], 10, 3)
	followUp(t, s, hanaV[4], 5, 0)
	return f
}

func TestSources(t *testing.T) {
	f := newSourceFixture(t)
	s := f.s
	for _, c := range []struct {
		source string
		counts api.EarlyWarningCounts
		kinds  []string
	}{
		{"", api.EarlyWarningCounts{AbsentStreak: 2, LateRepeat: 1, RepeatType: 1, FollowUpDue: 2, Total: 4},
			[]string{"follow_up_due", "follow_up_due", "absent_streak", "absent_streak", "late_repeat", "repeat_type"}},
		{"behaviour", api.EarlyWarningCounts{RepeatType: 1, FollowUpDue: 1, Total: 1}, []string{"follow_up_due", "repeat_type"}},
		{"attendance", api.EarlyWarningCounts{AbsentStreak: 2, LateRepeat: 1, FollowUpDue: 1, Total: 3},
			[]string{"follow_up_due", "absent_streak", "absent_streak", "late_repeat"}},
	} {
		t.Run("Source"+c.source, func(t *testing.T) {
			p := list(t, s.BK, "per_page=100&source="+c.source)
			var kinds []string
			for _, w := range p.Data {
				kinds = append(kinds, w.Kind)
			}
			if p.Counts != c.counts || !eq(kinds, c.kinds) {
				t.Errorf("counts %+v kinds %v", p.Counts, kinds)
			}
			want := c.source
			if want == "" {
				want = "all"
			}
			if p.Source != want || !eq(p.Kinds, api.EarlyWarningKindsOf[want]) {
				t.Errorf("source %q kinds %v", p.Source, p.Kinds)
			}
		})
	}
	p := list(t, s.BK, "per_page=100")
	if p.Rules != (api.EarlyWarningRules{AbsentStreakDays: 3, LateTimes: 5, LateSchoolDays: 10, RepeatTimes: 3, RepeatDays: 30}) {
		t.Errorf("rules %+v", p.Rules)
	}
	t.Run("RepeatBehaviourOnlyOncePerStudent", func(t *testing.T) {
		// Dedi's five automatic late violations are not a repeated type;
		// Hana's two repeated types are one row.
		h := find(t, p, "repeat_type", f.hana)
		if *h.TypeID != f.membolos || h.TypeName != "Membolos" || !eq(h.Dates, []string{day(20), day(12), day(6), day(2)}) ||
			len(h.Types) != 2 || h.Types[0] != (api.EarlyWarningType{TypeID: f.membolos, TypeName: "Membolos", Times: 4}) ||
			h.Types[1] != (api.EarlyWarningType{TypeID: s.TypeHeavy, TypeName: "Berkelahi", Times: 3}) {
			t.Errorf("Hana %+v", h)
		}
	})
	t.Run("FollowUpOncePerStudent", func(t *testing.T) {
		h := find(t, p, "follow_up_due", f.hana)
		if *h.FollowUps != 2 || *h.ViolationID != f.hanaOverdue || *h.OverdueDays != 3 || h.Action.Path != fmt.Sprintf("/violations/%d", f.hanaOverdue) {
			t.Errorf("Hana %+v", h)
		}
		if d := find(t, p, "follow_up_due", f.dedi); *d.FollowUps != 1 || *d.ViolationID != f.dediFollowUp {
			t.Errorf("Dedi %+v", d)
		}
	})
	t.Run("Streak", func(t *testing.T) {
		b := find(t, p, "absent_streak", f.budi)
		if *b.StreakFrom != day(3) || *b.StreakTo != day(1) || *b.StreakDays != 3 || b.Ongoing {
			t.Errorf("Budi %+v", b)
		}
		if c := find(t, p, "absent_streak", f.citra); *c.StreakDays != 4 || !c.Ongoing {
			t.Errorf("Citra %+v", c)
		}
	})
	t.Run("LateNInM", func(t *testing.T) {
		d := find(t, p, "late_repeat", f.dedi)
		if *d.LateDays != 5 || *d.WindowDays != 10 || *d.WindowFrom != day(9) || *d.WindowTo != day(0) ||
			!eq(d.Dates, []string{day(8), day(6), day(4), day(2), day(0)}) {
			t.Errorf("Dedi %+v", d)
		}
		if d.Action != (api.EarlyWarningAction{Kind: api.ActionRecordHandling, Path: fmt.Sprintf("/violations/%d", f.dediLatest)}) {
			t.Errorf("Dedi's action %+v", d.Action)
		}
	})
	t.Run("SettingSizes", func(t *testing.T) {
		admin := s.Env.As(perm.Admin)
		admin.Do("PUT", "/api/v1/settings/attendance-follow-up", api.AttendanceFollowUp{Owner: api.FollowUpHomeroomTeacher,
			AbsentStreakDays: 4, LateTimes: 4, LateSchoolDays: 10}).Want(http.StatusOK)
		q := list(t, s.BK, "per_page=100&source=attendance")
		if !eq(names(q, "absent_streak"), []string{"Citra Lestari"}) || !eq(names(q, "late_repeat"), []string{"Dedi Jaya", "Eko Prasetyo"}) {
			t.Errorf("streak 4, late 4 in 10: %v %v", names(q, "absent_streak"), names(q, "late_repeat"))
		}
		// Eko's fifth late day is the eleventh school day back.
		admin.Do("PUT", "/api/v1/settings/attendance-follow-up", api.AttendanceFollowUp{Owner: api.FollowUpHomeroomTeacher,
			AbsentStreakDays: 3, LateTimes: 5, LateSchoolDays: 11}).Want(http.StatusOK)
		if q := list(t, s.BK, "kind=late_repeat&source=attendance"); !eq(names(q, "late_repeat"), []string{"Dedi Jaya", "Eko Prasetyo"}) {
			t.Errorf("late 5 in 11: %v", names(q, "late_repeat"))
		}
		// Homeroom scoping holds for the new rule.
		if q := list(t, s.TeacherB, "source=attendance"); !eq(names(q, "late_repeat"), []string{"Eko Prasetyo"}) || q.Counts.Total != 1 {
			t.Errorf("teacher B: %+v", q.Counts)
		}
		if q := list(t, s.TeacherA, "kind=late_repeat"); !eq(names(q, "late_repeat"), []string{"Dedi Jaya"}) {
			t.Errorf("teacher A: %v", names(q, "late_repeat"))
		}
		admin.Do("PUT", "/api/v1/settings/attendance-follow-up", followup.Defaults()).Want(http.StatusOK)
	})
	t.Run("ErrKindOutsideSource", func(t *testing.T) {
		e := s.BK.Do("GET", "/api/v1/early-warnings?source=attendance&kind=repeat_type", nil).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["kind"].Code != "earlywarning.kind.not_in_source" {
			t.Errorf("%+v", e.Error)
		}
		e = s.BK.Do("GET", "/api/v1/early-warnings?source=sms", nil).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["source"].Code != "violationlist.filter.source" {
			t.Errorf("%+v", e.Error)
		}
	})
}
