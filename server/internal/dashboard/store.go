package dashboard

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/cases"
	"github.com/tatib/tatib/server/internal/earlywarning"
	"github.com/tatib/tatib/server/internal/followup"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// Scope is the caller's scope: a homeroom teacher (HomeroomID != 0) sees
// their own class only. Source is the "Sumber" of the violation figures,
// the calendar and the early-warning counts: behaviour, attendance, or all
// ("" is all).
type Scope struct {
	HomeroomID int64
	Source     string
}

// source is the scope's source, all when unset.
func (sc Scope) source() string {
	if sc.Source == "" {
		return api.SourceAll
	}
	return sc.Source
}

// Sections says which parts of the dashboard the caller may see.
type Sections struct {
	Violations, Caseload, Letters, Attendance, EarlyWarnings bool
	// AttendanceFollowUp: a homeroom teacher's open attendance violations,
	// shown while the school gives them attendance follow-up.
	AttendanceFollowUp bool
	// ParentMessagesFailed: the count of failed parent messages.
	ParentMessagesFailed bool
	// Cases: cases counted by category, stage and class (package cases).
	Cases bool
	// Achievements: this month's and the unverified achievements.
	Achievements bool
}

// Store reads the figures.
type Store struct {
	db *sqlx.DB
	// Parallel runs the queries side by side on the pool instead of one
	// after another. Off: on the benchmark's two cores the queries side by
	// side took longer than in a row (see docs/reports.md, "Dashboards").
	Parallel bool
	// Trace, when set, is told how long each query took (the benchmark's
	// breakdown).
	Trace func(name string, took time.Duration)
}

// task is one query of the dashboard.
type task struct {
	name string
	run  func(context.Context) error
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// violationScope is the list's own scope and source condition on
// violations v, so a figure and the list it links to count the same rows.
func violationScope(sc Scope, a *violation.Args) string {
	return sourceScope(sc, sc.source(), a)
}

// sourceScope is the list's scope with another source than the
// dashboard's (the caseload's, the attendance follow-up's).
func sourceScope(sc Scope, source string, a *violation.Args) string {
	cond := violation.Scope{HomeroomID: sc.HomeroomID}.SQL(a)
	if c := violation.SourceSQL(source); c != "" {
		cond += " AND " + c
	}
	return cond
}

// studentScope is the condition on students s: every student, or those
// now in the homeroom teacher's class.
func studentScope(sc Scope, a *violation.Args) string {
	if sc.HomeroomID == 0 {
		return "TRUE"
	}
	return `s.class_id IN (SELECT id FROM classes WHERE homeroom_teacher_id = ` + a.Add(sc.HomeroomID) + `)`
}

// Dashboard builds the dashboard of sections on the day of now.
func (s *Store) Dashboard(ctx context.Context, sc Scope, sec Sections, now time.Time) (api.Dashboard, error) {
	p := PeriodsOn(now)
	setting, err := followup.Load(ctx, s.db)
	if err != nil {
		return api.Dashboard{}, err
	}
	src := sc.source()
	out := api.Dashboard{Today: iso(p.Today), MonthFrom: iso(p.Month), MonthTo: iso(p.MonthEnd), Scope: "school",
		Source: src, FollowUpOwner: setting.Owner}
	var tasks []task
	if sc.HomeroomID != 0 {
		out.Scope = "class"
		tasks = append(tasks, task{"class", func(ctx context.Context) error { return s.class(ctx, sc, &out) }})
	}
	if sec.Violations {
		v := &api.DashboardViolations{}
		out.Violations = v
		tasks = append(tasks,
			task{"periods", func(ctx context.Context) error { return s.periods(ctx, sc, p, v) }},
			task{"by category", func(ctx context.Context) error { return s.byCategory(ctx, sc, p, v) }},
			task{"top types", func(ctx context.Context) error { return s.topTypes(ctx, sc, p, v) }},
			task{"classes by points", func(ctx context.Context) error { return s.classesByPoints(ctx, sc, p, v) }},
			task{"nearest level", func(ctx context.Context) error { return s.nearestSP(ctx, sc, p, v) }},
			task{"trend", func(ctx context.Context) error { return s.trend(ctx, sc, p, v) }})
	}
	if sec.Cases {
		tasks = append(tasks, task{"cases", func(ctx context.Context) error {
			c, err := cases.NewStore(s.db).Counts(ctx)
			out.Cases = &c
			return err
		}})
	}
	if sec.Caseload {
		// The counselors' queue follows the school's setting, not the
		// dashboard's Sumber.
		c := &api.DashboardCaseload{Source: followup.CaseloadSource(setting.Owner)}
		out.Caseload = c
		followUps := openLink(c.Source, "in_progress")
		if sec.EarlyWarnings {
			followUps = link(earlyWarningsPath, "kind", api.EarlyFollowUpDue, "source", c.Source)
		}
		tasks = append(tasks, task{"caseload", func(ctx context.Context) error { return s.caseload(ctx, sc, p, c, followUps) }})
	}
	if sec.AttendanceFollowUp && sc.HomeroomID != 0 && setting.Owner == api.FollowUpHomeroomTeacher {
		fu := &api.DashboardFollowUp{}
		out.AttendanceFollowUp = fu
		tasks = append(tasks, task{"attendance follow-up", func(ctx context.Context) error { return s.attendanceFollowUp(ctx, sc, fu) }})
	}
	if sec.Letters {
		l := &api.DashboardLetters{}
		out.Letters = l
		tasks = append(tasks, task{"letters", func(ctx context.Context) error { return s.letters(ctx, sc, p, l) }})
	}
	if sec.Attendance {
		a := &api.DashboardAttendance{}
		out.Attendance = a
		tasks = append(tasks, task{"attendance", func(ctx context.Context) error { return s.attendance(ctx, sc, p, a) }})
	}
	if sec.EarlyWarnings {
		e := &api.DashboardEarlyWarnings{Link: link(earlyWarningsPath, "source", src)}
		out.EarlyWarnings = e
		tasks = append(tasks, task{"early-warning counts", func(ctx context.Context) error {
			ep, err := earlywarning.Load(ctx, s.db, sc.HomeroomID, 0, p.Today.Start())
			if err != nil {
				return err
			}
			ep.Source = src
			e.Counts, err = earlywarning.CountsFor(ctx, s.db, ep)
			return err
		}})
	}
	if sec.ParentMessagesFailed {
		n := new(int)
		out.ParentMessagesFailed = n
		tasks = append(tasks, task{"failed parent messages", func(ctx context.Context) (err error) {
			*n, err = parentmsg.FailedCount(ctx, s.db, sc.HomeroomID)
			return err
		}})
	}
	if sec.Achievements {
		a := &api.DashboardAchievements{Month: api.DashboardCount{Link: "/achievements"}, Awaiting: api.DashboardCount{Link: "/achievements?verified=false"}}
		out.Achievements = a
		tasks = append(tasks, task{"achievements", func(ctx context.Context) error { return s.achievements(ctx, sc, p, a) }})
	}
	if err := s.run(ctx, tasks); err != nil {
		return api.Dashboard{}, err
	}
	if out.Attendance != nil && sc.HomeroomID != 0 && out.Class != nil {
		n := out.Attendance.Total - out.Attendance.Recorded
		out.Attendance.NotFilled = &api.DashboardCount{Count: n, Link: attendanceForm + "/" + id(out.Class.ID) + "/" + iso(p.Today)}
		out.Attendance.Link = link(attendanceRecap, "period", "daily", "date", iso(p.Today), "class", id(out.Class.ID))
	}
	return out, nil
}

// run runs tasks one after another (side by side when Parallel) and
// returns the first error; the others are cancelled.
func (s *Store) run(ctx context.Context, tasks []task) error {
	if !s.Parallel {
		for _, t := range tasks {
			if err := s.one(ctx, t); err != nil {
				return err
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for _, t := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.one(ctx, t); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	return first
}

// one runs t, timed when Trace is set.
func (s *Store) one(ctx context.Context, t task) error {
	if s.Trace == nil {
		return t.run(ctx)
	}
	start := time.Now()
	err := t.run(ctx)
	s.Trace(t.name, time.Since(start))
	return err
}

func (s *Store) class(ctx context.Context, sc Scope, out *api.Dashboard) error {
	var c []api.DashboardClassRef
	const q = `SELECT id, name FROM classes WHERE homeroom_teacher_id = $1`
	if err := s.db.SelectContext(ctx, &c, q, sc.HomeroomID); err != nil {
		return fmt.Errorf("dashboard: class: %w", err)
	}
	if len(c) > 0 {
		out.Class = &c[0]
	}
	return nil
}

// periods counts today, this week and this month with the previous ones,
// in one pass over the two months' rows.
func (s *Store) periods(ctx context.Context, sc Scope, p Periods, v *api.DashboardViolations) error {
	a := violation.Args{iso(p.earliest()), iso(p.Today), iso(p.PrevDay), iso(p.Week), iso(p.PrevWeek), iso(p.PrevWeekTo), iso(p.Month), iso(p.PrevMonth), iso(p.PrevMonthTo)}
	q := `SELECT count(*) FILTER (WHERE v.occurred_on = $2) AS today,
			count(*) FILTER (WHERE v.occurred_on = $3) AS prev_day,
			count(*) FILTER (WHERE v.occurred_on >= $4) AS week,
			count(*) FILTER (WHERE v.occurred_on BETWEEN $5 AND $6) AS prev_week,
			count(*) FILTER (WHERE v.occurred_on >= $7) AS month,
			count(*) FILTER (WHERE v.occurred_on BETWEEN $8 AND $9) AS prev_month
		FROM violations v
		WHERE v.occurred_on BETWEEN $1 AND $2 AND ` + violationScope(sc, &a)
	var r struct {
		Today     int `db:"today"`
		PrevDay   int `db:"prev_day"`
		Week      int `db:"week"`
		PrevWeek  int `db:"prev_week"`
		Month     int `db:"month"`
		PrevMonth int `db:"prev_month"`
	}
	if err := s.db.GetContext(ctx, &r, q, a...); err != nil {
		return fmt.Errorf("dashboard: periods: %w", err)
	}
	v.Today = api.DashboardCount{Count: r.Today, Previous: &r.PrevDay, Link: violationsLink(sc.source(), p.Today, p.Today)}
	v.Week = api.DashboardCount{Count: r.Week, Previous: &r.PrevWeek, Link: violationsLink(sc.source(), p.Week, p.Today)}
	v.Month = api.DashboardCount{Count: r.Month, Previous: &r.PrevMonth, Link: violationsLink(sc.source(), p.Month, p.Today)}
	return nil
}

func (s *Store) byCategory(ctx context.Context, sc Scope, p Periods, v *api.DashboardViolations) error {
	a := violation.Args{iso(p.Month), iso(p.Today)}
	q := `SELECT c.id, c.name, c.colour, count(*) AS count
		FROM violations v JOIN violation_types t ON t.id = v.violation_type_id JOIN violation_categories c ON c.id = t.category_id
		WHERE v.occurred_on BETWEEN $1 AND $2 AND ` + violationScope(sc, &a) + `
		GROUP BY c.id ORDER BY count DESC, c.sort_order, c.name`
	v.ByCategory = []api.DashboardCategory{}
	if err := s.db.SelectContext(ctx, &v.ByCategory, q, a...); err != nil {
		return fmt.Errorf("dashboard: by category: %w", err)
	}
	for i := range v.ByCategory {
		v.ByCategory[i].Link = violationsLink(sc.source(), p.Month, p.Today, "category_id", id(v.ByCategory[i].ID))
	}
	return nil
}

// TopTypes is how many types the dashboard lists.
const TopTypes = 5

func (s *Store) topTypes(ctx context.Context, sc Scope, p Periods, v *api.DashboardViolations) error {
	a := violation.Args{iso(p.Month), iso(p.Today), TopTypes}
	q := `SELECT t.id, t.name, c.name AS category_name, x.count, x.points
		FROM (SELECT v.violation_type_id, count(*) AS count, sum(v.points) AS points FROM violations v
		      WHERE v.occurred_on BETWEEN $1 AND $2 AND ` + violationScope(sc, &a) + `
		      GROUP BY v.violation_type_id ORDER BY count DESC, points DESC, v.violation_type_id LIMIT $3) x
		JOIN violation_types t ON t.id = x.violation_type_id JOIN violation_categories c ON c.id = t.category_id
		ORDER BY x.count DESC, x.points DESC, t.name`
	v.TopTypes = []api.DashboardType{}
	if err := s.db.SelectContext(ctx, &v.TopTypes, q, a...); err != nil {
		return fmt.Errorf("dashboard: top types: %w", err)
	}
	for i := range v.TopTypes {
		v.TopTypes[i].Link = violationsLink(sc.source(), p.Month, p.Today, "type_id", id(v.TopTypes[i].ID))
	}
	return nil
}

// TopClasses is how many classes the points chart shows.
const TopClasses = 10

func (s *Store) classesByPoints(ctx context.Context, sc Scope, p Periods, v *api.DashboardViolations) error {
	a := violation.Args{iso(p.Month), iso(p.Today), TopClasses}
	q := `SELECT c.id, c.name, x.points, x.count
		FROM (SELECT v.class_id, sum(v.points) AS points, count(*) AS count FROM violations v
		      WHERE v.occurred_on BETWEEN $1 AND $2 AND v.class_id IS NOT NULL AND ` + violationScope(sc, &a) + `
		      GROUP BY v.class_id ORDER BY points DESC, count DESC, v.class_id LIMIT $3) x
		JOIN classes c ON c.id = x.class_id
		ORDER BY x.points DESC, x.count DESC, c.name`
	v.ClassesByPoints = []api.DashboardClassPoints{}
	if err := s.db.SelectContext(ctx, &v.ClassesByPoints, q, a...); err != nil {
		return fmt.Errorf("dashboard: classes by points: %w", err)
	}
	for i := range v.ClassesByPoints {
		v.ClassesByPoints[i].Link = violationsLink(sc.source(), p.Month, p.Today, "class_id", id(v.ClassesByPoints[i].ID))
	}
	return nil
}

// NearestSP is how many students the nearest-level list shows.
const NearestSP = 10

// nearestSP ranks the active students in scope with points this academic
// year by the points left before their next level.
func (s *Store) nearestSP(ctx context.Context, sc Scope, p Periods, v *api.DashboardViolations) error {
	prof, err := school.LoadProfile(ctx, s.db)
	if err != nil {
		return fmt.Errorf("dashboard: profile: %w", err)
	}
	start := prof.YearStartOf(p.Today)
	a := violation.Args{iso(start), NearestSP}
	// The year's net total (student_year_points: the violations' points
	// less the points policy's reductions, as the ledger counts). A
	// homeroom teacher's students are picked before the sum: per student,
	// the equality reaches inside the inlined function, so the sum reads
	// their rows only (violations_student_idx).
	totals := `SELECT p.student_id, p.total FROM student_year_points($1::date) p`
	if sc.HomeroomID != 0 {
		totals = `SELECT s.id AS student_id, p.total FROM students s
			CROSS JOIN LATERAL (SELECT p.total FROM student_year_points($1::date) p WHERE p.student_id = s.id) p
			WHERE ` + studentScope(sc, &a)
	}
	q := `WITH totals AS (` + totals + `)
		SELECT s.id AS student_id, s.full_name AS name, coalesce(c.name, '') AS class_name, t.total AS points,
			th.level AS next_level, th.name AS next_level_name, th.min_points - t.total AS points_to_go
		FROM totals t JOIN students s ON s.id = t.student_id AND s.active
		LEFT JOIN classes c ON c.id = s.class_id
		JOIN LATERAL (SELECT level, name, min_points FROM sp_thresholds WHERE min_points > t.total ORDER BY min_points LIMIT 1) th ON true
		WHERE t.total > 0
		ORDER BY points_to_go, t.total DESC, s.full_name, s.id LIMIT $2`
	v.NearestSP = []api.DashboardNearSP{}
	if err := s.db.SelectContext(ctx, &v.NearestSP, q, a...); err != nil {
		return fmt.Errorf("dashboard: nearest level: %w", err)
	}
	for i := range v.NearestSP {
		v.NearestSP[i].Link = studentsPath + "/" + id(v.NearestSP[i].StudentID)
	}
	return nil
}

// trend counts violations per week of the last TrendWeeks weeks; weeks
// with none are there with 0.
func (s *Store) trend(ctx context.Context, sc Scope, p Periods, v *api.DashboardViolations) error {
	a := violation.Args{iso(p.TrendFrom), iso(p.Week.AddDays(6))}
	q := `SELECT (v.occurred_on - $1::date) / 7 AS week, count(*) AS count FROM violations v
		WHERE v.occurred_on BETWEEN $1 AND $2 AND ` + violationScope(sc, &a) + `
		GROUP BY 1`
	var rows []struct {
		Week  int `db:"week"`
		Count int `db:"count"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, a...); err != nil {
		return fmt.Errorf("dashboard: trend: %w", err)
	}
	v.Trend = make([]api.DashboardWeek, TrendWeeks)
	for i := range v.Trend {
		mon := p.TrendFrom.AddDays(7 * i)
		v.Trend[i] = api.DashboardWeek{Week: iso(mon), Link: violationsLink(sc.source(), mon, mon.AddDays(6))}
	}
	for _, r := range rows {
		if r.Week >= 0 && r.Week < TrendWeeks {
			v.Trend[r.Week].Count = r.Count
		}
	}
	return nil
}

// caseload counts the open violations and the follow-ups due (the latest
// handling's follow-up date of a violation not yet resolved).
func (s *Store) caseload(ctx context.Context, sc Scope, p Periods, c *api.DashboardCaseload, followUps string) error {
	a := violation.Args{iso(p.Today)}
	scope := func() string { return sourceScope(sc, c.Source, &a) }
	q := `SELECT
			(SELECT count(*) FROM violations v WHERE v.handling_status = 'unhandled' AND ` + scope() + `) AS unhandled,
			(SELECT count(*) FROM violations v WHERE v.handling_status = 'in_progress' AND ` + scope() + `) AS in_progress,
			count(*) FILTER (WHERE f.follow_up_on = $1) AS due_today,
			count(*) FILTER (WHERE f.follow_up_on < $1) AS overdue
		FROM (SELECT DISTINCT ON (h.violation_id) h.violation_id, h.follow_up_on FROM handlings h
		      WHERE h.follow_up_on IS NOT NULL ORDER BY h.violation_id, h.handled_on DESC, h.id DESC) f
		JOIN violations v ON v.id = f.violation_id
		WHERE f.follow_up_on <= $1 AND v.handling_status <> 'resolved' AND ` + scope()
	var r struct {
		Unhandled  int `db:"unhandled"`
		InProgress int `db:"in_progress"`
		DueToday   int `db:"due_today"`
		Overdue    int `db:"overdue"`
	}
	if err := s.db.GetContext(ctx, &r, q, a...); err != nil {
		return fmt.Errorf("dashboard: caseload: %w", err)
	}
	c.Unhandled = api.DashboardCount{Count: r.Unhandled, Link: openLink(c.Source, api.HandlingUnhandled)}
	c.InProgress = api.DashboardCount{Count: r.InProgress, Link: openLink(c.Source, api.HandlingInProgress)}
	c.FollowUpsToday = api.DashboardCount{Count: r.DueToday, Link: followUps}
	c.FollowUpsOverdue = api.DashboardCount{Count: r.Overdue, Link: followUps}
	return nil
}

// attendanceFollowUp counts a homeroom teacher's class's automatic
// attendance violations not resolved yet.
func (s *Store) attendanceFollowUp(ctx context.Context, sc Scope, fu *api.DashboardFollowUp) error {
	var a violation.Args
	q := `SELECT count(*) FILTER (WHERE v.handling_status = 'unhandled') AS unhandled,
			count(*) FILTER (WHERE v.handling_status = 'in_progress') AS in_progress
		FROM violations v
		WHERE v.handling_status <> 'resolved' AND ` + sourceScope(sc, api.SourceAttendance, &a)
	var r struct {
		Unhandled  int `db:"unhandled"`
		InProgress int `db:"in_progress"`
	}
	if err := s.db.GetContext(ctx, &r, q, a...); err != nil {
		return fmt.Errorf("dashboard: attendance follow-up: %w", err)
	}
	fu.Unhandled = api.DashboardCount{Count: r.Unhandled, Link: openLink(api.SourceAttendance, api.HandlingUnhandled)}
	fu.InProgress = api.DashboardCount{Count: r.InProgress, Link: openLink(api.SourceAttendance, api.HandlingInProgress)}
	return nil
}

// LetterStatuses are the letter statuses in the order the dashboard shows
// them.
var LetterStatuses = []string{"draft", "printed", "signed", "delivered", "withdrawn"}

// letters counts this month's letters (issued in it) by status, scoped
// like the letters list: the student now in, or the letter's class, the
// homeroom teacher's.
func (s *Store) letters(ctx context.Context, sc Scope, p Periods, l *api.DashboardLetters) error {
	const q = `SELECT wl.status, count(*) AS count FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		WHERE wl.issued_at >= ($2::date)::timestamp AT TIME ZONE 'Asia/Jakarta'
		  AND wl.issued_at < ($3::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'
		  AND ($1::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc
		       WHERE hc.homeroom_teacher_id = $1 AND (hc.id = s.class_id OR hc.id = wl.class_id)))
		GROUP BY wl.status`
	var rows []struct {
		Status string `db:"status"`
		Count  int    `db:"count"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, sc.HomeroomID, iso(p.Month), iso(p.MonthEnd)); err != nil {
		return fmt.Errorf("dashboard: letters: %w", err)
	}
	by := map[string]int{}
	total := 0
	for _, r := range rows {
		by[r.Status] = r.Count
		total += r.Count
	}
	from, to := iso(p.Month), iso(p.MonthEnd)
	l.Total = api.DashboardCount{Count: total, Link: link(lettersPath, "from", from, "to", to)}
	l.ByStatus = make([]api.DashboardLetterCount, len(LetterStatuses))
	for i, st := range LetterStatuses {
		l.ByStatus[i] = api.DashboardLetterCount{Status: st, Count: by[st], Link: link(lettersPath, "status", st, "from", from, "to", to)}
	}
	return nil
}

// attendance counts today's unique students per status among the active
// students in scope, and those with anything stored.
func (s *Store) attendance(ctx context.Context, sc Scope, p Periods, out *api.DashboardAttendance) error {
	a := violation.Args{iso(p.Today)}
	q := `SELECT count(*) FILTER (WHERE d.h > 0) AS h, count(*) FILTER (WHERE d.s > 0) AS s,
			count(*) FILTER (WHERE d.i > 0) AS i, count(*) FILTER (WHERE d.a > 0) AS a,
			count(*) FILTER (WHERE d.t > 0) AS t, count(d.student_id) AS recorded, count(*) AS total
		FROM students s LEFT JOIN attendance_days d ON d.student_id = s.id AND d.date = $1
		WHERE s.active AND ` + studentScope(sc, &a)
	var r struct {
		api.AttendanceCounts
		Recorded int `db:"recorded"`
		Total    int `db:"total"`
	}
	if err := s.db.GetContext(ctx, &r, q, a...); err != nil {
		return fmt.Errorf("dashboard: attendance: %w", err)
	}
	*out = api.DashboardAttendance{Date: iso(p.Today), Students: r.AttendanceCounts, Recorded: r.Recorded, Total: r.Total,
		Link: link(attendanceRecap, "period", "daily", "date", iso(p.Today), "tab", "school")}
	return nil
}

// Calendar counts month's violations per day.
func (s *Store) Calendar(ctx context.Context, sc Scope, month schoolday.Date) (api.ViolationCalendar, error) {
	end := month.AddDate(0, 1, 0)
	a := violation.Args{iso(month), iso(end)}
	q := `SELECT v.occurred_on AS date, count(*) AS count FROM violations v
		WHERE v.occurred_on >= $1 AND v.occurred_on < $2 AND ` + violationScope(sc, &a) + `
		GROUP BY v.occurred_on ORDER BY v.occurred_on`
	var rows []struct {
		Date  schoolday.Date `db:"date"`
		Count int            `db:"count"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, a...); err != nil {
		return api.ViolationCalendar{}, fmt.Errorf("dashboard: calendar: %w", err)
	}
	out := api.ViolationCalendar{Month: month.MonthString(), Source: sc.source(), Days: make([]api.ViolationCalendarDay, len(rows)),
		Prev: month.AddDate(0, -1, 0).MonthString(), Next: end.MonthString()}
	for i, r := range rows {
		out.Days[i] = api.ViolationCalendarDay{Date: iso(r.Date), Count: r.Count, Link: violationsLink(sc.source(), r.Date, r.Date)}
		out.Total += r.Count
		out.Max = max(out.Max, r.Count)
	}
	return out, nil
}

// achievements counts this month's achievements and those awaiting
// verification that have a student in the scope.
func (s *Store) achievements(ctx context.Context, sc Scope, p Periods, a *api.DashboardAchievements) error {
	const q = `SELECT count(*) FILTER (WHERE a.achieved_on >= $2::date AND a.achieved_on <= $3::date) AS month,
		    count(*) FILTER (WHERE a.verified_at IS NULL) AS awaiting
		FROM achievements a
		WHERE EXISTS (SELECT 1 FROM achievement_students x JOIN students s ON s.id = x.student_id WHERE x.achievement_id = a.id
		    AND ($1::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = $1 AND (hc.id = x.class_id OR hc.id = s.class_id))))`
	var row struct {
		Month    int `db:"month"`
		Awaiting int `db:"awaiting"`
	}
	if err := s.db.GetContext(ctx, &row, q, sc.HomeroomID, iso(p.Month), iso(p.MonthEnd)); err != nil {
		return fmt.Errorf("dashboard: achievements: %w", err)
	}
	a.Month.Count, a.Awaiting.Count = row.Month, row.Awaiting
	return nil
}
