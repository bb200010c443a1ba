package points

import (
	"slices"
	"strconv"
	"strings"
)

// This file is the letter rule, pure (no database): what one student's
// warning letters of one academic year become at a new total. Apply reads
// the inputs and writes the outcome.

// Threshold is one warning-letter level.
type Threshold struct {
	Level     int    `db:"level"`
	Name      string `db:"name"`
	MinPoints int    `db:"min_points"`
	Colour    string `db:"colour"`
}

// Letter statuses as the rule sees them.
const (
	statusDraft     = "draft"
	statusPrinted   = "printed"
	statusSigned    = "signed"
	statusDelivered = "delivered"
	statusWithdrawn = "withdrawn"
)

// open reports whether a letter of status s is still the school's work:
// drafted, printed or signed, not yet delivered.
func open(s string) bool { return s == statusDraft || s == statusPrinted || s == statusSigned }

// letterRow is a letter of the student's year as the rule needs it.
type letterRow struct {
	ID     int64
	Status string
	Level  int
	Levels []int
	Name   string
	// MinPoints is the stored threshold of its level (kept when the level
	// has no threshold any more).
	MinPoints int
	// Workable: not a read-only letter of an ended year (see
	// workableSQL); such a letter is never lowered or withdrawn.
	Workable bool
	// Fallen: a delivered letter already marked below its level.
	Fallen bool
	// Revivable: a draft a rule withdrew before it was printed, numbered or sent;
	// reaching a level again drafts it again rather than a new letter.
	Revivable bool
}

// step is one change of the total, in the order the batch made them.
type step struct {
	violationID   int64
	before, after int
}

// opKind is what happens to a letter.
type opKind int

const (
	opIssue    opKind = iota + 1 // a new draft
	opRevive                     // a withdrawn draft drafted again
	opRaise                      // an open letter now covers more (and maybe fewer) levels
	opLower                      // an open letter covers fewer levels
	opWithdraw                   // an open letter no level of which is reached
	opFall                       // a delivered letter whose level the total fell below
	opUnfall                     // ... which the total reaches again
)

// op is one change of one letter (LetterID 0: a new one).
type op struct {
	Kind      opKind
	LetterID  int64
	Levels    []int
	Level     int
	Name      string
	MinPoints int
	Points    int
	// Cause is the violation whose change brought it about (0: none).
	Cause int64
}

// settle is the letter rule for one student's academic year whose total is
// now total after steps, given its letters (every live one and at most one
// revivable withdrawn draft) and the thresholds (lowest first):
//
//   - at most one open letter; a level reached and covered by no live
//     letter raises the open letter to it, or, when none is open, drafts
//     one (a withdrawn draft coming back before a new one) covering every
//     such level: no level is skipped, none covered twice;
//   - an open letter whose levels are no longer all reached is lowered to
//     those still reached, or withdrawn when none is (not a read-only
//     letter of an ended year);
//   - a delivered letter never changes; it is only marked fallen (or no
//     longer) when the total is below (again at) its levels.
//
// A level without a threshold (the list was edited since) counts as still
// reached for the letters that cover it, and is never issued.
func settle(total int, steps []step, letters []letterRow, ths []Threshold) []op {
	byLevel := make(map[int]Threshold, len(ths))
	var reached []int
	for _, t := range ths {
		byLevel[t.Level] = t
		if t.MinPoints <= total {
			reached = append(reached, t.Level)
		}
	}
	isReached := func(l int) bool {
		t, ok := byLevel[l]
		return !ok || t.MinPoints <= total
	}
	var out []op
	covered := map[int]bool{}
	var cur *letterRow // the open letter
	var revive *letterRow
	for i := range letters {
		l := &letters[i]
		switch {
		case l.Status == statusDelivered:
			for _, v := range l.Levels {
				covered[v] = true
			}
			fallen := !all(l.Levels, isReached)
			switch {
			case fallen && !l.Fallen:
				out = append(out, op{Kind: opFall, LetterID: l.ID})
			case !fallen && l.Fallen:
				out = append(out, op{Kind: opUnfall, LetterID: l.ID})
			}
		case open(l.Status):
			if cur == nil || l.Level < cur.Level {
				cur = l
			}
		case l.Status == statusWithdrawn && l.Revivable:
			if revive == nil || l.ID > revive.ID {
				revive = l
			}
		}
	}
	// A second open letter cannot be stored (the unique index); if one
	// were, it would stand as a delivered one does.
	for i := range letters {
		if l := &letters[i]; open(l.Status) && l != cur {
			for _, v := range l.Levels {
				covered[v] = true
			}
		}
	}
	var keep []int
	if cur != nil {
		keep = slices.Clone(cur.Levels)
		if cur.Workable {
			keep = slices.DeleteFunc(keep, func(l int) bool { return !isReached(l) })
		}
		for _, v := range keep {
			covered[v] = true
		}
	}
	var missing []int
	for _, l := range reached {
		if !covered[l] {
			missing = append(missing, l)
		}
	}
	fall := lastFall(steps)
	switch {
	case cur != nil && len(missing) > 0:
		levels := merge(keep, missing)
		k := opRaise
		if top := levels[len(levels)-1]; top < cur.Level || (top == cur.Level && len(levels) < len(cur.Levels)) {
			k = opLower // the thresholds moved: fewer or lower levels
		}
		out = append(out, letterOp(k, cur.ID, levels, byLevel, cur, total, causeOf(steps, byLevel, missing)))
	case cur != nil && len(keep) == 0:
		out = append(out, op{Kind: opWithdraw, LetterID: cur.ID, Levels: cur.Levels, Level: cur.Level, Name: cur.Name,
			MinPoints: cur.MinPoints, Points: total, Cause: fall})
	case cur != nil && len(keep) < len(cur.Levels):
		out = append(out, letterOp(opLower, cur.ID, keep, byLevel, cur, total, fall))
	case cur == nil && len(missing) > 0 && revive != nil:
		out = append(out, letterOp(opRevive, revive.ID, missing, byLevel, nil, total, causeOf(steps, byLevel, missing)))
	case cur == nil && len(missing) > 0:
		out = append(out, letterOp(opIssue, 0, missing, byLevel, nil, total, causeOf(steps, byLevel, missing)))
	}
	return out
}

// letterOp is an op setting a letter to levels; was is the letter before
// (nil: a new or revived one), whose name and minimum stand for a level
// without a threshold.
func letterOp(k opKind, id int64, levels []int, byLevel map[int]Threshold, was *letterRow, total int, cause int64) op {
	top := levels[len(levels)-1]
	o := op{Kind: k, LetterID: id, Levels: levels, Level: top, Points: total, Cause: cause}
	if t, ok := byLevel[top]; ok {
		o.MinPoints = t.MinPoints
	} else if was != nil {
		o.MinPoints = was.MinPoints
	}
	o.Name = CoveredName(levels, func(l int) string {
		if t, ok := byLevel[l]; ok && strings.TrimSpace(t.Name) != "" {
			return t.Name
		}
		if was != nil && len(was.Levels) == 1 && was.Levels[0] == l && was.Name != "" {
			return was.Name
		}
		return "SP " + strconv.Itoa(l)
	})
	return o
}

// CoveredName names a letter covering levels (lowest first) from each
// level's name: "SP 2" for one, "SP 1–2" for names that differ only in
// their number, "Peringatan Awal–Peringatan Akhir" otherwise.
func CoveredName(levels []int, name func(int) string) string {
	if len(levels) == 0 {
		return ""
	}
	lo, hi := name(levels[0]), name(levels[len(levels)-1])
	if len(levels) == 1 {
		return lo
	}
	lp, ln := splitNumber(lo)
	hp, hn := splitNumber(hi)
	if ln != "" && hn != "" && lp == hp {
		return lo + "–" + hn
	}
	return lo + "–" + hi
}

// splitNumber splits "SP 12" into "SP " and "12"; no trailing digits: s, "".
func splitNumber(s string) (string, string) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i == 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// causeOf is the violation whose change first brought the total to the
// highest of levels and kept it there: the last step that crossed that
// level's threshold upwards (0: none did, e.g. a threshold lowered).
func causeOf(steps []step, byLevel map[int]Threshold, levels []int) int64 {
	t, ok := byLevel[levels[len(levels)-1]]
	if !ok {
		return 0
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if s := steps[i]; s.before < t.MinPoints && s.after >= t.MinPoints {
			return s.violationID
		}
	}
	return 0
}

// lastFall is the violation of the last step that lowered the total.
func lastFall(steps []step) int64 {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].after < steps[i].before {
			return steps[i].violationID
		}
	}
	return 0
}

// merge is the sorted union of two sorted level lists.
func merge(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func all(ls []int, f func(int) bool) bool {
	for _, l := range ls {
		if !f(l) {
			return false
		}
	}
	return true
}
