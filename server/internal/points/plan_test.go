package points

import (
	"fmt"
	"testing"
)

var ths = []Threshold{{Level: 1, Name: "SP 1", MinPoints: 50}, {Level: 2, Name: "SP 2", MinPoints: 100}, {Level: 3, Name: "SP 3", MinPoints: 150}}

func draft(id int64, levels ...int) letterRow {
	return letterRow{ID: id, Status: statusDraft, Level: levels[len(levels)-1], Levels: levels, Workable: true}
}

func withStatus(l letterRow, s string) letterRow { l.Status = s; return l }

// show writes ops as "kind id [levels] name cause" for comparison.
func show(ops []op) string {
	out := ""
	for _, o := range ops {
		out += fmt.Sprintf("%d:%d%v %s c%d;", o.Kind, o.LetterID, o.Levels, o.Name, o.Cause)
	}
	return out
}

func TestSettle(t *testing.T) {
	up := func(v int64, before, after int) step { return step{violationID: v, before: before, after: after} }
	for _, tc := range []struct {
		name    string
		total   int
		steps   []step
		letters []letterRow
		want    string
	}{
		{"NothingReached", 40, []step{up(1, 0, 40)}, nil, ""},
		{"IssueOne", 55, []step{up(7, 40, 55)}, nil, "1:0[1] SP 1 c7;"},
		{"IssueEveryLevelAtOnce", 160, []step{up(7, 40, 160)}, nil, "1:0[1 2 3] SP 1–3 c7;"},
		{"CauseIsTheStepThatCrossedTheTop", 120, []step{up(7, 40, 110), up(8, 110, 120)}, nil, "1:0[1 2] SP 1–2 c7;"},
		{"AlreadyCovered", 70, []step{up(7, 60, 70)}, []letterRow{draft(3, 1)}, ""},
		{"RaiseOpen", 120, []step{up(8, 90, 120)}, []letterRow{draft(3, 1)}, "3:3[1 2] SP 1–2 c8;"},
		{"RaisePrinted", 120, []step{up(8, 90, 120)}, []letterRow{withStatus(draft(3, 1), statusPrinted)}, "3:3[1 2] SP 1–2 c8;"},
		{"DeliveredNeverChangesNextStartsNew", 120, []step{up(8, 90, 120)}, []letterRow{withStatus(draft(3, 1), statusDelivered)}, "1:0[2] SP 2 c8;"},
		{"LowerToReached", 60, []step{{violationID: 9, before: 120, after: 60}}, []letterRow{draft(3, 1, 2)}, "4:3[1] SP 1 c9;"},
		{"WithdrawWhenNoneReached", 40, []step{{violationID: 9, before: 60, after: 40}}, []letterRow{draft(3, 1)}, "5:3[1]  c9;"},
		{"WithdrawOpenAboveDelivered", 60, []step{{violationID: 9, before: 110, after: 60}},
			[]letterRow{withStatus(draft(2, 1), statusDelivered), draft(3, 2)}, "5:3[2]  c9;"},
		{"DeliveredFallen", 40, []step{{violationID: 9, before: 60, after: 40}}, []letterRow{withStatus(draft(3, 1), statusDelivered)}, "6:0[]  c0;"},
		{"DeliveredRisenAgain", 60, []step{up(9, 40, 60)},
			[]letterRow{func() letterRow { l := withStatus(draft(3, 1), statusDelivered); l.Fallen = true; return l }()}, "7:0[]  c0;"},
		{"ReviveWithdrawnDraft", 52, []step{up(5, 48, 52)},
			[]letterRow{func() letterRow { l := withStatus(draft(3, 1), statusWithdrawn); l.Revivable = true; return l }()}, "2:3[1] SP 1 c5;"},
		{"WithdrawnNotRevivableNewLetter", 52, []step{up(5, 48, 52)}, []letterRow{withStatus(draft(3, 1), statusWithdrawn)}, "1:0[1] SP 1 c5;"},
		{"ReadOnlyNotLowered", 10, []step{{violationID: 9, before: 60, after: 10}},
			[]letterRow{func() letterRow { l := draft(3, 1); l.Workable = false; return l }()}, ""},
		{"MissingLowerLevelJoinsOpen", 110, []step{up(4, 100, 110)}, []letterRow{draft(3, 2)}, "3:3[1 2] SP 1–2 c0;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := settle(tc.total, tc.steps, tc.letters, ths)
			for i := range ops {
				if ops[i].Kind == opFall || ops[i].Kind == opUnfall {
					ops[i].LetterID = 0
				}
			}
			if got := show(ops); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestSettleNeverSkipsNorDoubles walks a total up and down through every
// level and checks after each step that every level reached is covered by
// exactly one live letter and at most one letter is open.
func TestSettleNeverSkipsNorDoubles(t *testing.T) {
	totals := []int{10, 60, 40, 55, 120, 160, 90, 30, 150, 60, 0, 200}
	var letters []letterRow
	next := int64(1)
	prev := 0
	for i, total := range totals {
		ops := settle(total, []step{{violationID: int64(i + 1), before: prev, after: total}}, letters, ths)
		prev = total
		for _, o := range ops {
			switch o.Kind {
			case opIssue:
				letters = append(letters, letterRow{ID: next, Status: statusDraft, Level: o.Level, Levels: o.Levels, Workable: true})
				next++
			case opRevive, opRaise, opLower, opWithdraw:
				for j := range letters {
					if letters[j].ID != o.LetterID {
						continue
					}
					if o.Kind == opWithdraw {
						letters[j].Status, letters[j].Revivable = statusWithdrawn, true
					} else {
						letters[j].Status, letters[j].Level, letters[j].Levels = statusDraft, o.Level, o.Levels
					}
				}
			}
		}
		// Deliver every open letter at 150 and above, as a school would.
		if total >= 150 {
			for j := range letters {
				if open(letters[j].Status) {
					letters[j].Status = statusDelivered
				}
			}
		}
		cover := map[int]int{}
		opened := 0
		for _, l := range letters {
			if l.Status == statusWithdrawn {
				continue
			}
			if open(l.Status) {
				opened++
			}
			for _, v := range l.Levels {
				cover[v]++
			}
		}
		if opened > 1 {
			t.Fatalf("total %d: %d open letters", total, opened)
		}
		for _, th := range ths {
			if th.MinPoints <= total && cover[th.Level] != 1 {
				t.Fatalf("total %d: level %d covered %d times: %+v", total, th.Level, cover[th.Level], letters)
			}
		}
	}
	if len(letters) > 3 {
		t.Fatalf("%d letters for three levels: %+v", len(letters), letters)
	}
}

func TestCoveredName(t *testing.T) {
	name := func(names map[int]string) func(int) string { return func(l int) string { return names[l] } }
	sp := name(map[int]string{1: "SP 1", 2: "SP 2", 3: "SP 3"})
	for _, tc := range []struct {
		levels []int
		name   func(int) string
		want   string
	}{
		{[]int{2}, sp, "SP 2"},
		{[]int{1, 2}, sp, "SP 1–2"},
		{[]int{1, 2, 3}, sp, "SP 1–3"},
		{[]int{1, 2}, name(map[int]string{1: "Peringatan Awal", 2: "Peringatan Akhir"}), "Peringatan Awal–Peringatan Akhir"},
		{[]int{1, 2}, name(map[int]string{1: "SP1", 2: "SP2"}), "SP1–2"},
		{nil, sp, ""},
	} {
		if got := CoveredName(tc.levels, tc.name); got != tc.want {
			t.Errorf("CoveredName(%v) = %q, want %q", tc.levels, got, tc.want)
		}
	}
}
