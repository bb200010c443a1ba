// Package earlywarning finds the students who need attention before a
// warning letter is due: near their next SP level, absent on consecutive
// school days, often late, repeating one behaviour violation type, or
// with a handling follow-up due; behaviour and attendance apart (a
// source). The page lists them; the dashboard shows their counts.
package earlywarning

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/followup"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// The rules' fixed sizes (docs/reports.md, "Early warnings"). The streak's
// length and the late rule's N and M are the school's (package followup).
const (
	// StreakWindow is how many of the latest school days the streak and
	// the late rule look at: a bounded window, never the whole year.
	StreakWindow = followup.MaxSchoolDays
	// StreakRecentDays: a streak (or a run of late days) is listed when
	// its last day is at most this many calendar days before today.
	StreakRecentDays = 14
	// RepeatCount behaviour violations of one type within RepeatDays days.
	RepeatCount = 3
	RepeatDays  = 30
)

// Params is what one evaluation of the rules needs.
type Params struct {
	// HomeroomID scopes to that homeroom teacher's class (0: the school).
	HomeroomID int64
	// ClassID narrows to one class (0: every class in scope).
	ClassID int64
	// Today is the Jakarta day the rules are evaluated on.
	Today schoolday.Date
	// YearStart is the first day of the academic year containing Today.
	YearStart schoolday.Date
	// Points is the school's early_warning_points (N).
	Points int
	// Source is behaviour, attendance or all ("" is all): the kinds
	// evaluated (api.EarlyWarningKindsOf) and the violations whose
	// follow-ups count.
	Source string
	// StreakDays absent school days in a row are a streak; LateTimes late
	// days within the latest LateSchoolDays school days are a warning.
	StreakDays, LateTimes, LateSchoolDays int
}

// source is p's source, all when unset.
func (p Params) source() string {
	if p.Source == "" {
		return api.SourceAll
	}
	return p.Source
}

// Rules are the sizes p evaluates with.
func (p Params) Rules() api.EarlyWarningRules {
	return api.EarlyWarningRules{AbsentStreakDays: p.StreakDays, LateTimes: p.LateTimes, LateSchoolDays: p.LateSchoolDays,
		RepeatTimes: RepeatCount, RepeatDays: RepeatDays}
}

func (p Params) args() []any {
	return []any{p.HomeroomID, p.Today.String(), p.YearStart.String(), p.Points, p.ClassID,
		p.StreakDays, p.LateTimes, p.LateSchoolDays, p.source()}
}

// rules is the WITH list every query starts with: $1 homeroom teacher (0:
// all), $2 today, $3 academic year start, $4 N points, $5 class (0: all),
// $6 streak days, $7 late times, $8 late school days, $9 source. Each
// kind's CTE reads only what its rule needs, school-wide through an index
// on the rule's dates, and is narrowed to the scope ({scope}, on the
// student aliased s, their class now) at its end: a few hundred rows at
// most, where the school-wide pass is a few thousand index entries. A
// kind outside the source is a constant false filter: not read at all.
// Every kind but near_level is one row per student.
//
//   - sd: the latest StreakWindow school days up to today, n = 1 the
//     newest. A school day is a day on which anyone's attendance was
//     recorded; found by skipping down the (date, student_id) index one
//     distinct day at a time, so the cost does not grow with the year.
//   - streak: gaps and islands over the absent (any A hour) school days,
//     read from the partial index of absent days: consecutive school days
//     have consecutive n, so n - row_number() is constant along a run. A
//     day without attendance anywhere (Sunday, a holiday) is not a school
//     day and does not break a run; a recorded day without A does. The
//     newest run per student.
//   - late: the late (any T hour) days of the latest $8 school days per
//     student, counted from the partial index of late days; $7 or more,
//     the newest within StreakRecentDays of today (the days themselves are
//     read for the page's rows only).
//   - near: the academic year's net points per student
//     (student_year_points: the violations' index-only scan less the
//     points policy's reductions, as the ledger counts) joined to the thresholds within N above the total; the lowest of
//     those without a live letter is the next level. Points of both
//     sources count toward letters, so it is under every source.
//   - rep: the last RepeatDays days' behaviour violations (not automatic
//     attendance ones) per student and type; reps keeps each student's
//     most repeated type (their days and the newest one are read for the
//     page's rows only).
//   - fu: handlings with a follow-up date up to today that are their
//     violation's newest handling (due), the violation not resolved and of
//     the source; the violations are fetched by id (= ANY), not scanned
//     for their status. fus keeps each student's most overdue one and how
//     many are due.
var rules = strings.NewReplacer(
	"{window}", strconv.Itoa(StreakWindow), "{recent}", strconv.Itoa(StreakRecentDays),
	"{repeat}", strconv.Itoa(RepeatCount), "{repeat_days}", strconv.Itoa(RepeatDays),
	"{scope}", `s.active AND ($5::bigint = 0 OR s.class_id = $5)
	  AND ($1::bigint = 0 OR s.class_id IN (SELECT c.id FROM classes c WHERE c.homeroom_teacher_id = $1))`,
).Replace(`WITH RECURSIVE
sd (date, n) AS (
	(SELECT date, 1 FROM attendance_days WHERE date <= $2::date ORDER BY date DESC LIMIT 1)
	UNION ALL
	SELECT (SELECT a.date FROM attendance_days a WHERE a.date < sd.date ORDER BY a.date DESC LIMIT 1), sd.n + 1
	FROM sd WHERE sd.n < {window} AND sd.date IS NOT NULL
),
absent AS (
	SELECT ad.student_id, sd.date, sd.n,
		sd.n - row_number() OVER (PARTITION BY ad.student_id ORDER BY sd.n) AS island
	FROM attendance_days ad JOIN sd ON sd.date = ad.date
	WHERE ad.a > 0 AND ad.date >= (SELECT min(date) FROM sd) AND ad.date <= $2::date
	  AND $9::text <> 'behaviour'
),
islands AS (
	SELECT DISTINCT ON (student_id) student_id, min(date) AS first_day, max(date) AS last_day,
		count(*)::int AS days, min(n) = 1 AS ongoing
	FROM absent
	GROUP BY student_id, island
	HAVING count(*) >= $6 AND max(date) >= $2::date - {recent}
	ORDER BY student_id, max(date) DESC
),
streak AS (
	SELECT i.* FROM islands i JOIN students s ON s.id = i.student_id WHERE {scope}
),
lwin AS (
	SELECT min(date) AS first_day, max(date) AS last_day, count(*)::int AS days FROM sd WHERE n <= $8 AND date IS NOT NULL
),
late AS (
	SELECT l.* FROM (
		SELECT ad.student_id, count(*)::int AS days, max(ad.date) AS last_day
		FROM attendance_days ad
		WHERE ad.t > 0 AND ad.date >= (SELECT first_day FROM lwin) AND ad.date <= $2::date
		  AND $9::text <> 'behaviour'
		GROUP BY ad.student_id
		HAVING count(*) >= $7 AND max(ad.date) >= $2::date - {recent}
	) l JOIN students s ON s.id = l.student_id WHERE {scope}
),
tot AS (
	SELECT p.student_id, p.total FROM student_year_points($3::date) p
),
near AS (
	SELECT DISTINCT ON (t.student_id) t.student_id, t.total, th.level, th.name, th.min_points - t.total AS to_go
	FROM tot t
	JOIN sp_thresholds th ON th.min_points > t.total AND th.min_points - t.total <= $4
	JOIN students s ON s.id = t.student_id
	WHERE t.total > 0 AND {scope}
	  AND NOT EXISTS (SELECT 1 FROM warning_letters wl WHERE wl.student_id = t.student_id
		AND wl.academic_year_start = $3::date AND th.level = ANY(wl.levels_covered) AND wl.status <> 'withdrawn')
	ORDER BY t.student_id, th.min_points
),
rep AS (
	SELECT r.* FROM (
		SELECT v.student_id, v.violation_type_id AS type_id, count(*)::int AS times, max(v.occurred_on) AS last_on
		FROM violations v
		WHERE v.occurred_on > $2::date - {repeat_days} AND v.occurred_on <= $2::date
		  AND v.source <> 'attendance' AND $9::text <> 'attendance'
		GROUP BY v.student_id, v.violation_type_id
		HAVING count(*) >= {repeat}
	) r JOIN students s ON s.id = r.student_id
	WHERE {scope}
),
reps AS (
	SELECT DISTINCT ON (student_id) student_id, type_id, times
	FROM rep ORDER BY student_id, times DESC, last_on DESC, type_id
),
due AS (
	SELECT h.violation_id, h.follow_up_on FROM handlings h
	WHERE h.follow_up_on <= $2::date
	  AND NOT EXISTS (SELECT 1 FROM handlings h2 WHERE h2.violation_id = h.violation_id
		AND (h2.handled_on, h2.id) > (h.handled_on, h.id))
),
fu AS (
	SELECT v.id AS violation_id, v.student_id, v.violation_type_id AS type_id, v.occurred_on, due.follow_up_on
	FROM due JOIN violations v ON v.id = due.violation_id
	JOIN students s ON s.id = v.student_id
	WHERE v.id = ANY (ARRAY(SELECT violation_id FROM due)) AND v.handling_status <> 'resolved' AND {scope}
	  AND ($9::text = 'all' OR (v.source = 'attendance') = ($9::text = 'attendance'))
),
fus AS (
	SELECT DISTINCT ON (student_id) fu.*, count(*) OVER (PARTITION BY student_id)::int AS due_count
	FROM fu ORDER BY student_id, follow_up_on, violation_id
)`)

// Load reads N (the school profile) and the attendance rules' sizes
// (package followup) and returns the parameters for today in the given
// scope, of every source.
func Load(ctx context.Context, q sqlx.QueryerContext, homeroomID, classID int64, today time.Time) (Params, error) {
	prof, err := school.LoadProfile(ctx, q)
	if err != nil {
		return Params{}, fmt.Errorf("earlywarning: profile: %w", err)
	}
	fs, err := followup.Load(ctx, q)
	if err != nil {
		return Params{}, err
	}
	day := schoolday.DateOf(today)
	n := prof.EarlyWarningPoints
	if n <= 0 {
		n = school.DefaultProfile().EarlyWarningPoints
	}
	return Params{HomeroomID: homeroomID, ClassID: classID, Today: day, YearStart: prof.YearStartOf(day), Points: n,
		Source: api.SourceAll, StreakDays: fs.AbsentStreakDays, LateTimes: fs.LateTimes, LateSchoolDays: fs.LateSchoolDays}, nil
}

// Counts returns the number of early warnings of each kind for a homeroom
// teacher's class (homeroomID, their user id) or the whole school (0), on
// today (its Jakarta day). The dashboard calls it.
func Counts(ctx context.Context, q sqlx.QueryerContext, homeroomID int64, today time.Time) (api.EarlyWarningCounts, error) {
	p, err := Load(ctx, q, homeroomID, 0, today)
	if err != nil {
		return api.EarlyWarningCounts{}, err
	}
	return CountsFor(ctx, q, p)
}

// CountsFor is Counts with the parameters already loaded.
func CountsFor(ctx context.Context, q sqlx.QueryerContext, p Params) (api.EarlyWarningCounts, error) {
	const tail = `
SELECT (SELECT count(*) FROM near) AS near_level,
	(SELECT count(*) FROM streak) AS absent_streak,
	(SELECT count(*) FROM late) AS late_repeat,
	(SELECT count(*) FROM reps) AS repeat_type,
	(SELECT count(*) FROM fus) AS follow_up_due,
	(SELECT count(*) FROM (SELECT student_id FROM near UNION SELECT student_id FROM streak UNION SELECT student_id FROM late
		UNION SELECT student_id FROM reps UNION SELECT student_id FROM fus) u) AS total`
	var c api.EarlyWarningCounts
	row := q.QueryRowxContext(ctx, rules+tail, p.args()...)
	if err := row.Scan(&c.NearLevel, &c.AbsentStreak, &c.LateRepeat, &c.RepeatType, &c.FollowUpDue, &c.Total); err != nil {
		return api.EarlyWarningCounts{}, fmt.Errorf("earlywarning: counts: %w", err)
	}
	return c, nil
}

// row is one warning as the list query returns it.
type row struct {
	Kind        string         `db:"kind"`
	StudentID   int64          `db:"student_id"`
	StudentName string         `db:"student_name"`
	StudentNIS  string         `db:"student_nis"`
	StudentNISN string         `db:"student_nisn"`
	ClassID     *int64         `db:"class_id"`
	ClassName   string         `db:"class_name"`
	Points      *int           `db:"points"`
	NextLevel   *int           `db:"next_level"`
	LevelName   *string        `db:"next_level_name"`
	ToGo        *int           `db:"to_go"`
	First       *string        `db:"first_day"`
	Last        *string        `db:"last_day"`
	Days        *int           `db:"days"`
	Ongoing     *bool          `db:"ongoing"`
	TypeID      *int64         `db:"type_id"`
	TypeName    *string        `db:"type_name"`
	Dates       pq.StringArray `db:"dates"`
	Types       []byte         `db:"types"`
	WindowDays  *int           `db:"window_days"`
	WindowFrom  *string        `db:"window_from"`
	WindowTo    *string        `db:"window_to"`
	ViolationID *int64         `db:"violation_id"`
	OccurredOn  *string        `db:"occurred_on"`
	FollowUpOn  *string        `db:"follow_up_on"`
	Overdue     *int           `db:"overdue"`
	FollowUps   *int           `db:"follow_ups"`
	ActionID    *int64         `db:"action_violation_id"`
	Rows        int            `db:"rows"`
}

// List returns a page of warnings of kind ("" for every kind of p's
// source), in the order the page shows them: follow-ups due (most overdue
// first), absence streaks (ongoing, then longest), late (most often),
// repeated types (most often), near a level (fewest points to go); then
// by student name. total is the number of rows the kind has.
func List(ctx context.Context, q sqlx.QueryerContext, p Params, kind string, limit, offset int) ([]api.EarlyWarning, int, error) {
	// The next action's violation: for near_level the student's newest
	// unresolved violation this year, for absent_streak the newest
	// unresolved automatic alpha violation within the streak, for
	// late_repeat the newest unresolved automatic late one within the
	// window; computed only for the page's rows.
	const listTail = `,
w AS (
	SELECT 'follow_up_due' AS kind, 1 AS ord, fus.student_id, (fus.follow_up_on - $2::date) AS sort_key,
		NULL::int AS points, NULL::int AS next_level, NULL::text AS next_level_name, NULL::int AS to_go,
		NULL::date AS first_day, NULL::date AS last_day, NULL::int AS days, NULL::boolean AS ongoing,
		fus.type_id, NULL::text[] AS dates, fus.violation_id, fus.occurred_on, fus.follow_up_on, fus.due_count AS follow_ups
	FROM fus
	UNION ALL
	SELECT 'absent_streak', 2, student_id, (CASE WHEN ongoing THEN 0 ELSE 1000 END) - days,
		NULL, NULL, NULL, NULL, first_day, last_day, days, ongoing, NULL, NULL, NULL, NULL, NULL, NULL
	FROM streak
	UNION ALL
	SELECT 'late_repeat', 3, student_id, -days,
		NULL, NULL, NULL, NULL, NULL, last_day, days, NULL, NULL, NULL, NULL, NULL, NULL, NULL
	FROM late
	UNION ALL
	SELECT 'repeat_type', 4, student_id, -times,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, type_id, NULL, NULL, NULL, NULL, NULL
	FROM reps
	UNION ALL
	SELECT 'near_level', 5, student_id, to_go,
		total, level, name, to_go, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
	FROM near
),
page AS (
	SELECT w.*, count(*) OVER () AS rows
	FROM w JOIN students s ON s.id = w.student_id
	WHERE ($10::text = '' OR w.kind = $10)
	ORDER BY w.ord, w.sort_key, s.full_name, s.id
	LIMIT $11 OFFSET $12
)
SELECT page.kind, page.student_id, s.full_name AS student_name, s.nis AS student_nis, s.nisn AS student_nisn,
	s.class_id, COALESCE(c.name, '') AS class_name,
	page.points, page.next_level, page.next_level_name, page.to_go,
	to_char(page.first_day, 'YYYY-MM-DD') AS first_day, to_char(page.last_day, 'YYYY-MM-DD') AS last_day,
	page.days, page.ongoing, page.type_id, vt.name AS type_name,
	CASE WHEN page.kind = 'repeat_type' THEN (SELECT array_agg(to_char(v.occurred_on, 'YYYY-MM-DD') ORDER BY v.occurred_on, v.id)
		FROM violations v WHERE v.student_id = page.student_id AND v.violation_type_id = page.type_id AND v.source <> 'attendance'
		  AND v.occurred_on > $2::date - {repeat_days} AND v.occurred_on <= $2::date)
		WHEN page.kind = 'late_repeat' THEN (SELECT array_agg(to_char(ad.date, 'YYYY-MM-DD') ORDER BY ad.date)
		FROM attendance_days ad WHERE ad.student_id = page.student_id AND ad.t > 0
		  AND ad.date >= (SELECT first_day FROM lwin) AND ad.date <= $2::date) END AS dates,
	CASE WHEN page.kind = 'repeat_type' THEN (SELECT json_agg(json_build_object('type_id', r.type_id, 'type_name', t.name, 'times', r.times)
		ORDER BY r.times DESC, r.last_on DESC, r.type_id)
		FROM rep r JOIN violation_types t ON t.id = r.type_id WHERE r.student_id = page.student_id) END AS types,
	CASE WHEN page.kind = 'late_repeat' THEN (SELECT days FROM lwin) END AS window_days,
	CASE WHEN page.kind = 'late_repeat' THEN (SELECT to_char(first_day, 'YYYY-MM-DD') FROM lwin) END AS window_from,
	CASE WHEN page.kind = 'late_repeat' THEN (SELECT to_char(last_day, 'YYYY-MM-DD') FROM lwin) END AS window_to,
	CASE WHEN page.kind = 'repeat_type' THEN (SELECT v.id FROM violations v
		WHERE v.student_id = page.student_id AND v.violation_type_id = page.type_id AND v.source <> 'attendance'
		  AND v.occurred_on > $2::date - {repeat_days} AND v.occurred_on <= $2::date
		ORDER BY v.occurred_on DESC, v.id DESC LIMIT 1) ELSE page.violation_id END AS violation_id,
	to_char(page.occurred_on, 'YYYY-MM-DD') AS occurred_on,
	to_char(page.follow_up_on, 'YYYY-MM-DD') AS follow_up_on,
	($2::date - page.follow_up_on) AS overdue,
	page.follow_ups,
	CASE page.kind
		WHEN 'near_level' THEN (SELECT v.id FROM violations v WHERE v.student_id = page.student_id
			AND v.handling_status <> 'resolved' AND v.occurred_on >= $3::date AND v.occurred_on <= $2::date
			ORDER BY v.occurred_on DESC, v.id DESC LIMIT 1)
		WHEN 'absent_streak' THEN (SELECT v.id FROM violations v WHERE v.student_id = page.student_id
			AND v.auto_kind = 'alpha' AND v.handling_status <> 'resolved'
			AND v.occurred_on BETWEEN page.first_day AND page.last_day
			ORDER BY v.occurred_on DESC, v.id DESC LIMIT 1)
		WHEN 'late_repeat' THEN (SELECT v.id FROM violations v WHERE v.student_id = page.student_id
			AND v.auto_kind = 'late' AND v.handling_status <> 'resolved'
			AND v.occurred_on BETWEEN (SELECT first_day FROM lwin) AND page.last_day
			ORDER BY v.occurred_on DESC, v.id DESC LIMIT 1)
	END AS action_violation_id,
	page.rows
FROM page JOIN students s ON s.id = page.student_id
LEFT JOIN classes c ON c.id = s.class_id
LEFT JOIN violation_types vt ON vt.id = page.type_id
ORDER BY page.ord, page.sort_key, s.full_name, s.id`
	var rows []row
	args := append(p.args(), kind, limit, offset)
	tail := strings.ReplaceAll(listTail, "{repeat_days}", strconv.Itoa(RepeatDays))
	if err := sqlx.SelectContext(ctx, q, &rows, rules+tail, args...); err != nil {
		return nil, 0, fmt.Errorf("earlywarning: list: %w", err)
	}
	out := make([]api.EarlyWarning, 0, len(rows))
	total := 0
	for _, r := range rows {
		total = r.Rows
		w, err := r.warning()
		if err != nil {
			return nil, 0, err
		}
		out = append(out, w)
	}
	if len(rows) == 0 && offset > 0 {
		// Past the last page: the count comes from the first row.
		_, t, err := List(ctx, q, p, kind, 1, 0)
		return out, t, err
	}
	return out, total, nil
}

// warning turns a row into the wire type with its next action.
func (r row) warning() (api.EarlyWarning, error) {
	w := api.EarlyWarning{
		Kind: r.Kind, StudentID: r.StudentID, StudentName: r.StudentName, StudentNIS: r.StudentNIS, StudentNISN: r.StudentNISN,
		ClassID: r.ClassID, ClassName: r.ClassName,
		Points: r.Points, NextLevel: r.NextLevel, NextLevelName: deref(r.LevelName), PointsToNext: r.ToGo,
		TypeID: r.TypeID, TypeName: deref(r.TypeName), Dates: []string(r.Dates), Types: []api.EarlyWarningType{},
		ViolationID: r.ViolationID, OccurredOn: r.OccurredOn, FollowUpOn: r.FollowUpOn,
	}
	if w.Dates == nil {
		w.Dates = []string{}
	}
	switch r.Kind {
	case api.EarlyAbsentStreak:
		w.StreakFrom, w.StreakTo, w.StreakDays, w.Ongoing = r.First, r.Last, r.Days, r.Ongoing != nil && *r.Ongoing
	case api.EarlyLateRepeat:
		w.LateDays, w.WindowDays, w.WindowFrom, w.WindowTo = r.Days, r.WindowDays, r.WindowFrom, r.WindowTo
	case api.EarlyRepeatType:
		if len(r.Types) > 0 {
			if err := json.Unmarshal(r.Types, &w.Types); err != nil {
				return w, fmt.Errorf("earlywarning: types: %w", err)
			}
		}
	case api.EarlyFollowUpDue:
		w.OverdueDays, w.FollowUps = r.Overdue, r.FollowUps
	}
	student := api.EarlyWarningAction{Kind: api.ActionOpenStudent, Path: fmt.Sprintf("/students/%d", r.StudentID)}
	handle := func(id *int64) api.EarlyWarningAction {
		if id == nil {
			return student
		}
		return api.EarlyWarningAction{Kind: api.ActionRecordHandling, Path: fmt.Sprintf("/violations/%d", *id)}
	}
	switch r.Kind {
	case api.EarlyFollowUpDue, api.EarlyRepeatType:
		w.Action = handle(r.ViolationID)
	default:
		w.Action = handle(r.ActionID)
	}
	return w, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// LatestSchoolDay is the newest day on or before today with any attendance
// recorded, or nil.
func LatestSchoolDay(ctx context.Context, q sqlx.QueryerContext, today schoolday.Date) (*string, error) {
	var d *string
	err := sqlx.GetContext(ctx, q, &d, `SELECT to_char(max(date), 'YYYY-MM-DD') FROM attendance_days WHERE date <= $1::date`,
		today.String())
	if err != nil {
		return nil, fmt.Errorf("earlywarning: latest school day: %w", err)
	}
	return d, nil
}
