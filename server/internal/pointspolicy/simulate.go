package pointspolicy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// MaxTypePoints bounds a draft's type points list.
const MaxTypePoints = 2000

// simStudent is one student's year as the simulator reads it.
type simStudent struct {
	ID        int64  `db:"id"`
	Name      string `db:"full_name"`
	ClassID   *int64 `db:"class_id"`
	ClassName string `db:"class_name"`
	// Reduced: the reductions made this year (today's); Achieved: the
	// year's verified achievement points.
	Reduced    int `db:"reduced"`
	Achieved   int `db:"achieved"`
	violations int // today's violation points
	draft      int // the violation points under the draft type points
}

type level struct {
	Level int
	Name  string
	Min   int
}

func levelOf(total int, ls []level) int {
	out := 0
	for _, l := range ls {
		if total >= l.Min {
			out = l.Level
		}
	}
	return out
}

// Simulate replays the draft (thresholds, type points, policy; what is
// left out is today's) on the current academic year's data and answers how
// many students hold each level today and under the draft, and who would
// cross a level or fall back, per class. It reads in one read-only
// transaction and writes nothing. Today's totals are the ledger's (the
// violations' points less the reductions made); the draft's are the
// violations' points with the draft type points, less the draft policy's
// reductions: under the policy in force, the reductions made (never more
// than the total); under another, offset as if every verified achievement
// of the year had been verified under it, amnesty replayed over the year's
// violation days and school days.
func Simulate(ctx context.Context, db *sqlx.DB, lang locale.Lang, in api.SimulateRequest, now time.Time) (api.SimulateResponse, error) {
	var out api.SimulateResponse
	f := apperr.Fields{}
	var draftLevels []level
	if len(in.Thresholds) > 0 {
		ti := violationtype.ThresholdsInput{}
		for _, t := range in.Thresholds {
			name := t.Name
			if name == "" {
				name = fmt.Sprintf("SP %d", t.Level)
			}
			ti.Thresholds = append(ti.Thresholds, violationtype.ThresholdInput{Level: t.Level, Name: name, MinPoints: t.MinPoints, Colour: t.Colour})
		}
		if err := ti.Validate(); err != nil {
			return out, err
		}
		for _, t := range ti.Thresholds {
			draftLevels = append(draftLevels, level{Level: t.Level, Name: t.Name, Min: t.MinPoints})
		}
		slices.SortFunc(draftLevels, func(a, b level) int { return a.Level - b.Level })
	}
	if len(in.TypePoints) > MaxTypePoints {
		f.Add("type_points", "pointspolicy.simulate.too_many", "max", MaxTypePoints)
	}
	draftPoints := make(map[int64]int, len(in.TypePoints))
	typeIDs := make([]int64, 0, len(in.TypePoints))
	for _, tp := range in.TypePoints {
		if tp.Points < 0 || tp.Points > violationtype.MaxPoints {
			f.Add("type_points", "pointspolicy.simulate.points_range", "max", violationtype.MaxPoints)
			break
		}
		draftPoints[tp.TypeID] = tp.Points
		typeIDs = append(typeIDs, tp.TypeID)
	}
	if in.Policy != nil {
		// The draft carries its own numbers (offset cap, amnesty days and
		// points), checked as PUT /points-policy checks them; its field
		// errors are named under "policy." beside the draft's others.
		var pe *apperr.Error
		if err := Validate(*in.Policy); errors.As(err, &pe) {
			for k, m := range pe.Fields {
				f["policy."+k] = m
			}
		} else if err != nil {
			return out, err
		}
	}
	if len(f) > 0 {
		return out, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("pointspolicy.simulate.invalid"), Fields: f}
	}

	tx, err := db.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return out, err
	}
	defer func() { _ = tx.Rollback() }()
	current, err := Load(ctx, tx)
	if err != nil {
		return out, err
	}
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return out, fmt.Errorf("pointspolicy: profile: %w", err)
	}
	today := schoolday.DateOf(now)
	start := profile.YearStartOf(today)
	end := start.AddDate(1, 0, 0)
	out.AcademicYearStart = start.String()

	if len(typeIDs) > 0 {
		var found int
		if err := tx.GetContext(ctx, &found, `SELECT count(*) FROM violation_types WHERE id = ANY($1)`, pq.Array(typeIDs)); err != nil {
			return out, fmt.Errorf("pointspolicy: types: %w", err)
		}
		if found != len(draftPoints) {
			return out, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("pointspolicy.simulate.invalid"),
				Fields: apperr.Fields{"type_points": apperr.M("pointspolicy.simulate.type_unknown")}}
		}
	}
	var todayLevels []level
	if err := tx.SelectContext(ctx, &todayLevels, `SELECT level AS "level", name AS "name", min_points AS "min" FROM sp_thresholds ORDER BY level`); err != nil {
		return out, fmt.Errorf("pointspolicy: thresholds: %w", err)
	}
	if draftLevels == nil {
		draftLevels = todayLevels
	}

	// The year's students, each with today's reductions and the verified
	// achievement points.
	var students []simStudent
	if err := tx.SelectContext(ctx, &students, `WITH ids AS (
			SELECT DISTINCT student_id FROM violations WHERE occurred_on >= $1::date AND occurred_on < $2::date
			UNION SELECT student_id FROM point_reductions WHERE academic_year_start = $1::date)
		SELECT s.id, s.full_name, s.class_id, COALESCE(c.name, '') AS class_name,
		    COALESCE((SELECT sum(r.points) FROM point_reductions r WHERE r.student_id = s.id AND r.academic_year_start = $1::date), 0) AS reduced,
		    COALESCE((SELECT sum(a.points) FROM achievement_students x JOIN achievements a ON a.id = x.achievement_id
		        WHERE x.student_id = s.id AND a.verified_at IS NOT NULL AND a.achieved_on >= $1::date AND a.achieved_on < $2::date), 0) AS achieved
		FROM ids JOIN students s ON s.id = ids.student_id LEFT JOIN classes c ON c.id = s.class_id
		WHERE s.active ORDER BY s.id`, out.AcademicYearStart, end); err != nil {
		return out, fmt.Errorf("pointspolicy: students: %w", err)
	}
	at := make(map[int64]int, len(students))
	for i, s := range students {
		at[s.ID] = i
	}
	var sums []struct {
		StudentID int64 `db:"student_id"`
		TypeID    int64 `db:"violation_type_id"`
		Points    int   `db:"points"`
		N         int   `db:"n"`
	}
	if err := tx.SelectContext(ctx, &sums, `SELECT student_id, violation_type_id, sum(points)::int AS points, count(*)::int AS n
		FROM violations WHERE occurred_on >= $1::date AND occurred_on < $2::date GROUP BY 1, 2`,
		out.AcademicYearStart, end); err != nil {
		return out, fmt.Errorf("pointspolicy: sums: %w", err)
	}
	for _, r := range sums {
		i, ok := at[r.StudentID]
		if !ok {
			continue
		}
		students[i].violations += r.Points
		if p, ok := draftPoints[r.TypeID]; ok {
			students[i].draft += p * r.N
		} else {
			students[i].draft += r.Points
		}
	}

	policy := current
	if in.Policy != nil {
		policy = *in.Policy
	}
	same := policy.Mode == current.Mode && (policy.Mode == ModeNone ||
		policy.Mode == ModeOffset && policy.OffsetCapPercent == current.OffsetCapPercent ||
		policy.Mode == ModeAmnesty && policy.AmnestyCleanSchoolDays == current.AmnestyCleanSchoolDays && policy.AmnestyPoints == current.AmnestyPoints)
	var amnesty map[int64]int
	if !same && policy.Mode == ModeAmnesty {
		if amnesty, err = replayAmnesty(ctx, tx, policy, draftPoints, at, start, today); err != nil {
			return out, err
		}
	}

	todayCount := map[int]int{}
	draftCount := map[int]int{}
	classes := map[string]*api.SimulateClass{}
	for _, s := range students {
		todayTotal := max(0, s.violations-s.Reduced)
		var reduce int
		switch {
		case same:
			reduce = s.Reduced
		case policy.Mode == ModeOffset:
			reduce = min(s.Achieved, s.draft*policy.OffsetCapPercent/100)
		case policy.Mode == ModeAmnesty:
			reduce = amnesty[s.ID]
		}
		draftTotal := max(0, s.draft-reduce)
		tl, dl := levelOf(todayTotal, todayLevels), levelOf(draftTotal, draftLevels)
		todayCount[tl]++
		draftCount[dl]++
		if tl == dl {
			continue
		}
		st := api.SimulateStudent{StudentID: s.ID, Name: s.Name, ClassID: s.ClassID, ClassName: s.ClassName,
			TodayTotal: todayTotal, DraftTotal: draftTotal, TodayLevel: tl, DraftLevel: dl, Change: "crossed"}
		key := s.ClassName
		c := classes[key]
		if c == nil {
			c = &api.SimulateClass{ClassID: s.ClassID, ClassName: s.ClassName}
			classes[key] = c
		}
		if dl < tl {
			st.Change = "fell_back"
			c.FellBack++
		} else {
			c.Crossed++
		}
		out.Changes = append(out.Changes, st)
	}
	out.Students = len(students)
	names := map[int]string{0: locale.Render(lang, "pointspolicy.simulate.no_level", nil)}
	maxLevel := 0
	for _, ls := range [][]level{todayLevels, draftLevels} {
		for _, l := range ls {
			if _, ok := names[l.Level]; !ok || l.Level > 0 {
				names[l.Level] = l.Name
			}
			maxLevel = max(maxLevel, l.Level)
		}
	}
	for _, l := range draftLevels { // the draft's names win
		names[l.Level] = l.Name
	}
	for lv := 0; lv <= maxLevel; lv++ {
		out.Levels = append(out.Levels, api.SimulateLevel{Level: lv, Name: names[lv], Today: todayCount[lv], Draft: draftCount[lv]})
	}
	if out.Changes == nil {
		out.Changes = []api.SimulateStudent{}
	}
	sort.SliceStable(out.Changes, func(i, j int) bool {
		a, b := out.Changes[i], out.Changes[j]
		if a.ClassName != b.ClassName {
			return a.ClassName < b.ClassName
		}
		return a.Name < b.Name
	})
	out.Classes = []api.SimulateClass{}
	for _, c := range classes {
		out.Classes = append(out.Classes, *c)
	}
	sort.Slice(out.Classes, func(i, j int) bool { return out.Classes[i].ClassName < out.Classes[j].ClassName })
	out.Note = locale.Render(lang, "pointspolicy.simulate.note", nil)
	return out, nil
}

// replayAmnesty replays amnesty over the year for the students of at: in
// each student's order of violation days, every run of policy's clean
// school days after the later of a violation and the previous amnesty
// reduces the running total by the policy's points (never below zero).
func replayAmnesty(ctx context.Context, tx *sqlx.Tx, policy Policy, draftPoints map[int64]int, at map[int64]int,
	start, today schoolday.Date) (map[int64]int, error) {
	var days []schoolday.Date
	if err := tx.SelectContext(ctx, &days, `SELECT DISTINCT date FROM attendance_days WHERE date >= $1::date AND date <= $2::date ORDER BY 1`,
		start, today); err != nil {
		return nil, fmt.Errorf("pointspolicy: school days: %w", err)
	}
	var rows []struct {
		StudentID int64          `db:"student_id"`
		Day       schoolday.Date `db:"occurred_on"`
		TypeID    int64          `db:"violation_type_id"`
		Points    int            `db:"points"`
		N         int            `db:"n"`
	}
	if err := tx.SelectContext(ctx, &rows, `SELECT student_id, occurred_on, violation_type_id, sum(points)::int AS points, count(*)::int AS n
		FROM violations WHERE occurred_on >= $1::date AND occurred_on <= $2::date GROUP BY 1, 2, 3 ORDER BY 1, 2`,
		start, today); err != nil {
		return nil, fmt.Errorf("pointspolicy: violation days: %w", err)
	}
	// schoolDaysBetween counts school days in (a, b).
	idx := func(d schoolday.Date) int {
		return sort.Search(len(days), func(i int) bool { return !days[i].Before(d) })
	}
	between := func(a, b schoolday.Date) int {
		return max(0, idx(b)-idx(a.AddDays(1)))
	}
	out := map[int64]int{}
	end := today.AddDays(1)
	for i := 0; i < len(rows); {
		sid := rows[i].StudentID
		total, reduced := 0, 0
		for i < len(rows) && rows[i].StudentID == sid {
			day := rows[i].Day
			for i < len(rows) && rows[i].StudentID == sid && rows[i].Day.Equal(day) {
				if p, ok := draftPoints[rows[i].TypeID]; ok {
					total += p * rows[i].N
				} else {
					total += rows[i].Points
				}
				i++
			}
			next := end
			if i < len(rows) && rows[i].StudentID == sid {
				next = rows[i].Day
			}
			for k := between(day, next) / policy.AmnestyCleanSchoolDays; k > 0 && total > 0; k-- {
				r := min(policy.AmnestyPoints, total)
				total -= r
				reduced += r
			}
		}
		if _, ok := at[sid]; ok {
			out[sid] = reduced
		}
	}
	return out, nil
}
