package attendancerecap

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Scope is who reads: HomeroomID is the homeroom teacher's user id (their
// class only) or 0 for every class. Built from auth.HomeroomID.
type Scope struct {
	HomeroomID int64
}

// Store reads the recaps and calendars.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// readTx runs fn in a read-only repeatable-read transaction, so a recap's
// students, hours and counts come from one snapshot.
func (s *Store) readTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("attendancerecap: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// class is a class the caller may see.
type class struct {
	ID   int64  `db:"id"`
	Name string `db:"name"`
}

// class reads class id within sc: NotFound for a class that does not exist
// or is not the homeroom teacher's.
func (s *Store) class(ctx context.Context, q sqlx.QueryerContext, sc Scope, id int64) (class, error) {
	const qs = `SELECT id, name FROM classes WHERE id = $1 AND ($2::bigint = 0 OR homeroom_teacher_id = $2)`
	var c class
	if err := sqlx.GetContext(ctx, q, &c, qs, id, sc.HomeroomID); err != nil {
		return class{}, pg.Error(err, "entity.class")
	}
	return c, nil
}

// members are the class's active students by name: a recap shows the class
// as it is now (a student who moved shows under the new class).
func members(ctx context.Context, q sqlx.QueryerContext, classID int64) ([]api.AttendanceRecapStudent, error) {
	const qs = `SELECT id, nisn, nis, full_name FROM students WHERE class_id = $1 AND active ORDER BY full_name, id`
	rows, err := q.QueryxContext(ctx, qs, classID)
	if err != nil {
		return nil, fmt.Errorf("attendancerecap: members: %w", err)
	}
	defer rows.Close()
	out := []api.AttendanceRecapStudent{}
	for rows.Next() {
		var st api.AttendanceRecapStudent
		if err := rows.Scan(&st.ID, &st.NISN, &st.NIS, &st.FullName); err != nil {
			return nil, fmt.Errorf("attendancerecap: members: %w", err)
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("attendancerecap: members: %w", err)
	}
	return out, nil
}

// classDays reads the per-day counts of the class's active students
// from..to, each day classified by rule.
func classDays(ctx context.Context, q sqlx.QueryerContext, classID int64, from, to schoolday.Date, rule string) ([]dayCounts, error) {
	qs := `SELECT d.student_id, d.date, d.h, d.s, d.i, d.a, d.t, ` + dayStatusSQL(4) + ` AS status
		FROM students s JOIN attendance_days d ON d.student_id = s.id AND d.date BETWEEN $2 AND $3
		WHERE s.class_id = $1 AND s.active`
	var out []dayCounts
	if err := sqlx.SelectContext(ctx, q, &out, qs, classID, from, to, rule); err != nil {
		return nil, fmt.Errorf("attendancerecap: days: %w", err)
	}
	return out, nil
}

// schoolDaysSQL counts the school days from $1 to $2: the dates on which
// any student has a stored hour. It walks the date index one distinct date
// at a time (about 20 probes a month) instead of reading every row.
const schoolDaysSQL = `WITH RECURSIVE days AS (
		(SELECT date FROM attendance_days WHERE date BETWEEN $1 AND $2 AND h + s + i + a + t > 0 ORDER BY date LIMIT 1)
		UNION ALL
		SELECT (SELECT d.date FROM attendance_days d WHERE d.date > days.date AND d.date <= $2 AND d.h + d.s + d.i + d.a + d.t > 0
			ORDER BY d.date LIMIT 1)
		FROM days WHERE days.date IS NOT NULL)
	SELECT count(date) FROM days`

// schoolDays is the number of school days from..to (see schoolDaysSQL).
// They are the school's, not the class's: a class with nothing stored on a
// day the rest of the school has shows that day as not recorded.
func schoolDays(ctx context.Context, q sqlx.QueryerContext, from, to schoolday.Date) (int, error) {
	var n int
	if err := sqlx.GetContext(ctx, q, &n, schoolDaysSQL, from, to); err != nil {
		return 0, fmt.Errorf("attendancerecap: school days: %w", err)
	}
	return n, nil
}

// settings are what a recap reads besides attendance: the school profile
// (lesson hours, academic-year start) and the day rule.
type settings struct {
	profile school.Profile
	rule    string
}

func loadSettings(ctx context.Context, q sqlx.QueryerContext) (settings, error) {
	p, err := school.LoadProfile(ctx, q)
	if err != nil {
		return settings{}, fmt.Errorf("attendancerecap: profile: %w", err)
	}
	r, err := LoadDayRule(ctx, q)
	if err != nil {
		return settings{}, err
	}
	return settings{profile: p, rule: r.Rule}, nil
}

// resolve widens a semester period to the semester containing its date;
// other periods are as parsed.
func resolve(prof school.Profile, p Period) Period {
	if p.Kind != Semester {
		return p
	}
	sem := SemesterOf(prof, p.From)
	return Period{Kind: Semester, From: sem.From, To: sem.To, Year: sem.Year, Number: sem.Number}
}

// ClassRecap is the recap of class id over p.
func (s *Store) ClassRecap(ctx context.Context, sc Scope, id int64, p Period) (api.AttendanceRecap, error) {
	var out api.AttendanceRecap
	err := s.readTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		out, err = s.classRecap(ctx, tx, sc, id, p)
		return err
	})
	return out, err
}

func (s *Store) classRecap(ctx context.Context, tx *sqlx.Tx, sc Scope, id int64, p Period) (api.AttendanceRecap, error) {
	c, err := s.class(ctx, tx, sc, id)
	if err != nil {
		return api.AttendanceRecap{}, err
	}
	set, err := loadSettings(ctx, tx)
	if err != nil {
		return api.AttendanceRecap{}, err
	}
	p = resolve(set.profile, p)
	n := set.profile.LessonHoursPerDay
	students, err := members(ctx, tx, c.ID)
	if err != nil {
		return api.AttendanceRecap{}, err
	}
	days, err := classDays(ctx, tx, c.ID, p.From, p.To, set.rule)
	if err != nil {
		return api.AttendanceRecap{}, err
	}
	sd, err := schoolDays(ctx, tx, p.From, p.To)
	if err != nil {
		return api.AttendanceRecap{}, err
	}
	out := api.AttendanceRecap{Period: p.Kind, ClassID: c.ID, ClassName: c.Name, From: p.From.String(),
		To: p.To.String(), LessonHours: n, Year: p.Year, Semester: p.Number, DayRule: set.rule,
		Dates: p.Dates(), Students: students, SchoolDays: sd}

	if p.Kind == Daily {
		hours, maxHour, err := dayHours(ctx, tx, c.ID, p.From)
		if err != nil {
			return api.AttendanceRecap{}, err
		}
		// An hour stored past today's N (N lowered later) still shows.
		out.LessonHours = max(n, maxHour)
		for i := range out.Students {
			row := make([]string, out.LessonHours)
			for h, st := range hours[out.Students[i].ID] {
				row[h-1] = st
			}
			out.Students[i].Hours = row
		}
	}
	fill(&out, days)
	return out, nil
}

// dayHours reads the stored status of each hour of the class's active
// students on date: student -> hour -> status, and the highest hour.
func dayHours(ctx context.Context, q sqlx.QueryerContext, classID int64, date schoolday.Date) (map[int64]map[int]string, int, error) {
	const qs = `SELECT a.student_id, a.lesson_hour, a.status
		FROM students s JOIN attendance a ON a.student_id = s.id AND a.date = $2
		WHERE s.class_id = $1 AND s.active`
	rows, err := q.QueryxContext(ctx, qs, classID, date)
	if err != nil {
		return nil, 0, fmt.Errorf("attendancerecap: hours: %w", err)
	}
	defer rows.Close()
	out := map[int64]map[int]string{}
	top := 0
	for rows.Next() {
		var id int64
		var h int
		var st string
		if err := rows.Scan(&id, &h, &st); err != nil {
			return nil, 0, fmt.Errorf("attendancerecap: hours: %w", err)
		}
		if out[id] == nil {
			out[id] = map[int]string{}
		}
		out[id][h] = st
		top = max(top, h)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("attendancerecap: hours: %w", err)
	}
	return out, top, nil
}

// fill computes a recap's per-student hours and days, per-day summary and
// totals from its student-day rows (classified by the query). A day's
// summary counts each student once, under their day's status, so the
// statuses and Unrecorded add up to the class; out.SchoolDays must be set.
func fill(out *api.AttendanceRecap, days []dayCounts) {
	index := map[string]int{}
	for i, d := range out.Dates {
		index[d] = i
	}
	students := map[int64]int{}
	for i, st := range out.Students {
		students[st.ID] = i
		if out.Period == Weekly {
			out.Students[i].Days = make([]api.AttendanceCounts, len(out.Dates))
		}
		if out.Period == Weekly || out.Period == Daily {
			out.Students[i].DayStatuses = make([]string, len(out.Dates))
		}
	}
	out.Summary = make([]api.AttendanceRecapDay, len(out.Dates))
	for i, d := range out.Dates {
		out.Summary[i].Date = d
	}
	with := make([]api.AttendanceCounts, len(out.Students))
	for _, d := range days {
		si, ok := students[d.StudentID]
		di, ok2 := index[d.Date.String()]
		if !ok || !ok2 {
			continue
		}
		c := d.counts()
		if total(c) == 0 {
			continue
		}
		st := &out.Students[si]
		add(&st.Counts, c)
		addStatus(&st.DayCounts, d.Status.String)
		st.DaysRecorded++
		if st.Days != nil {
			st.Days[di] = c
		}
		if st.DayStatuses != nil {
			st.DayStatuses[di] = d.Status.String
		}
		addStatus(&out.Summary[di].Students, d.Status.String)
		out.Summary[di].Recorded++
		add(&with[si], anyOf(c))
	}
	for i := range out.Summary {
		out.Summary[i].Unrecorded = len(out.Students) - out.Summary[i].Recorded
	}
	recorded := 0
	for i := range out.Students {
		st := &out.Students[i]
		st.Percentage = Percentage(st.Counts)
		add(&out.Hours, st.Counts)
		add(&out.Days, st.DayCounts)
		add(&out.StudentsWith, anyOf(with[i]))
		recorded += st.DaysRecorded
	}
	out.DaysUnrecorded = max(0, len(out.Students)*out.SchoolDays-recorded)
}

// schoolClassesSQL lists the classes within scope with their active
// students.
const schoolClassesSQL = `SELECT c.id, c.name,
		(SELECT count(*) FROM students s WHERE s.class_id = c.id AND s.active)
	FROM classes c WHERE ($1::bigint = 0 OR c.homeroom_teacher_id = $1)
	ORDER BY c.grade, c.name, c.id`

// schoolAggSQL reads the period's per-day counts once (attendance_days by
// its date index: about 33,000 rows a month for 1,500 students), classifies
// each student-day by the day rule ($4) and groups them two ways in one
// pass: per student (class lines: hours, days per status, and unique
// students per status) and per date (students per day status; one
// student-day is one row, so a filtered count is a count of students).
// Grouping by the student alone (their class is min(class_id), the one
// they have) keeps the planner's group estimate at the number of students,
// so both sets are hashed in one pass; (class, student) made it sort twice.
var schoolAggSQL = `SELECT GROUPING(x.date) = 0 AS per_day, coalesce(min(x.class_id), 0), coalesce(x.date, $1),
		sum(x.h), sum(x.s), sum(x.i), sum(x.a), sum(x.t),
		count(*) FILTER (WHERE x.st = 'H'), count(*) FILTER (WHERE x.st = 'S'), count(*) FILTER (WHERE x.st = 'I'),
		count(*) FILTER (WHERE x.st = 'A'), count(*) FILTER (WHERE x.st = 'T'), count(*)
	FROM (SELECT s.class_id, d.student_id, d.date, d.h, d.s, d.i, d.a, d.t, ` + dayStatusSQL(4) + ` AS st
		FROM attendance_days d
		JOIN students s ON s.id = d.student_id AND s.active
		JOIN classes c ON c.id = s.class_id
		WHERE d.date BETWEEN $1 AND $2 AND ($3::bigint = 0 OR c.homeroom_teacher_id = $3)
			AND (d.h + d.s + d.i + d.a + d.t) > 0) x
	GROUP BY GROUPING SETS ((x.student_id), (x.date))`

// SchoolRecap is every class's line over p (a homeroom teacher: theirs).
func (s *Store) SchoolRecap(ctx context.Context, sc Scope, p Period) (api.AttendanceSchoolRecap, error) {
	var out api.AttendanceSchoolRecap
	err := s.readTx(ctx, func(tx *sqlx.Tx) error {
		set, err := loadSettings(ctx, tx)
		if err != nil {
			return err
		}
		p = resolve(set.profile, p)
		out = api.AttendanceSchoolRecap{Period: p.Kind, From: p.From.String(), To: p.To.String(),
			Year: p.Year, Semester: p.Number, DayRule: set.rule, Classes: []api.AttendanceRecapClass{}}
		sd, err := schoolDays(ctx, tx, p.From, p.To)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, schoolClassesSQL, sc.HomeroomID)
		if err != nil {
			return fmt.Errorf("attendancerecap: school classes: %w", err)
		}
		index := map[int64]int{}
		for rows.Next() {
			c := api.AttendanceRecapClass{SchoolDays: sd}
			if err := rows.Scan(&c.ClassID, &c.ClassName, &c.Size); err != nil {
				rows.Close()
				return fmt.Errorf("attendancerecap: school classes: %w", err)
			}
			index[c.ClassID] = len(out.Classes)
			out.Classes = append(out.Classes, c)
			out.Size += c.Size
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("attendancerecap: school classes: %w", err)
		}

		dates := p.Dates()
		di := map[string]int{}
		out.Summary = make([]api.AttendanceRecapDay, len(dates))
		for i, d := range dates {
			out.Summary[i].Date = d
			di[d] = i
		}
		recorded := make([]int, len(out.Classes))
		rows, err = tx.QueryContext(ctx, schoolAggSQL, p.From, p.To, sc.HomeroomID, set.rule)
		if err != nil {
			return fmt.Errorf("attendancerecap: school: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var perDay bool
			var id int64
			var d schoolday.Date
			var h, days api.AttendanceCounts
			var n int
			if err := rows.Scan(&perDay, &id, &d, &h.H, &h.S, &h.I, &h.A, &h.T, &days.H, &days.S, &days.I, &days.A, &days.T, &n); err != nil {
				return fmt.Errorf("attendancerecap: school: %w", err)
			}
			if perDay {
				if i, ok := di[d.String()]; ok {
					out.Summary[i].Students, out.Summary[i].Recorded = days, n
				}
				continue
			}
			// One student's period: add them to their class.
			i, ok := index[id]
			if !ok {
				continue
			}
			c := &out.Classes[i]
			add(&c.Hours, h)
			add(&c.StudentsWith, anyOf(h))
			add(&c.Days, days)
			recorded[i] += n
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("attendancerecap: school: %w", err)
		}
		for i := range out.Summary {
			out.Summary[i].Unrecorded = max(0, out.Size-out.Summary[i].Recorded)
		}
		for i := range out.Classes {
			c := &out.Classes[i]
			c.Percentage = Percentage(c.Hours)
			c.DaysUnrecorded = max(0, c.Size*sd-recorded[i])
			add(&out.Hours, c.Hours)
			add(&out.StudentsWith, c.StudentsWith)
			add(&out.Days, c.Days)
			out.DaysUnrecorded += c.DaysUnrecorded
		}
		return nil
	})
	return out, err
}

// ClassCalendar is class id's month starting at month: per date, the
// hours per status and the students per day status (the school's rule).
func (s *Store) ClassCalendar(ctx context.Context, sc Scope, id int64, month schoolday.Date) (api.AttendanceCalendar, error) {
	out := calendar(month)
	err := s.readTx(ctx, func(tx *sqlx.Tx) error {
		c, err := s.class(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		out.ClassID, out.ClassName = c.ID, c.Name
		if err := tx.GetContext(ctx, &out.ClassSize, `SELECT count(*) FROM students WHERE class_id = $1 AND active`, c.ID); err != nil {
			return fmt.Errorf("attendancerecap: class size: %w", err)
		}
		rule, err := LoadDayRule(ctx, tx)
		if err != nil {
			return err
		}
		// Students per day status, as the recaps count them.
		qs := `SELECT x.date, sum(x.h), sum(x.s), sum(x.i), sum(x.a), sum(x.t),
				count(*) FILTER (WHERE x.st = 'H'), count(*) FILTER (WHERE x.st = 'S'), count(*) FILTER (WHERE x.st = 'I'),
				count(*) FILTER (WHERE x.st = 'A'), count(*) FILTER (WHERE x.st = 'T'), count(*)
			FROM (SELECT d.date, d.h, d.s, d.i, d.a, d.t, ` + dayStatusSQL(4) + ` AS st
				FROM students s JOIN attendance_days d ON d.student_id = s.id AND d.date BETWEEN $2 AND $3
				WHERE s.class_id = $1 AND s.active AND (d.h + d.s + d.i + d.a + d.t) > 0) x
			GROUP BY x.date ORDER BY x.date`
		rows, err := tx.QueryContext(ctx, qs, c.ID, month, month.AddDate(0, 1, -1), rule.Rule)
		if err != nil {
			return fmt.Errorf("attendancerecap: class calendar: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var d schoolday.Date
			var day api.AttendanceCalendarDay
			h, w := &day.Hours, &day.Students
			if err := rows.Scan(&d, &h.H, &h.S, &h.I, &h.A, &h.T, &w.H, &w.S, &w.I, &w.A, &w.T, &day.Recorded); err != nil {
				return fmt.Errorf("attendancerecap: class calendar: %w", err)
			}
			day.Date = d.String()
			day.State = StatePartial
			if day.Recorded >= out.ClassSize {
				day.State = StateComplete
			}
			out.Days = append(out.Days, day)
		}
		return rows.Err()
	})
	return out, err
}

// StudentCalendar is student id's month starting at month, each day's
// state its status by the school's day rule. A homeroom
// teacher sees the students now in their class only: anyone else is
// NotFound.
func (s *Store) StudentCalendar(ctx context.Context, sc Scope, id int64, month schoolday.Date) (api.AttendanceCalendar, error) {
	out := calendar(month)
	out.StudentID = id
	err := s.readTx(ctx, func(tx *sqlx.Tx) error {
		const visible = `SELECT s.id FROM students s LEFT JOIN classes c ON c.id = s.class_id
			WHERE s.id = $1 AND ($2::bigint = 0 OR c.homeroom_teacher_id = $2)`
		var found int64
		if err := tx.GetContext(ctx, &found, visible, id, sc.HomeroomID); err != nil {
			return pg.Error(err, "entity.student")
		}
		rule, err := LoadDayRule(ctx, tx)
		if err != nil {
			return err
		}
		qs := `SELECT d.student_id, d.date, d.h, d.s, d.i, d.a, d.t, ` + dayStatusSQL(4) + ` AS status FROM attendance_days d
			WHERE d.student_id = $1 AND d.date BETWEEN $2 AND $3 ORDER BY d.date`
		var days []dayCounts
		if err := tx.SelectContext(ctx, &days, qs, id, month, month.AddDate(0, 1, -1), rule.Rule); err != nil {
			return fmt.Errorf("attendancerecap: student calendar: %w", err)
		}
		for _, d := range days {
			c := d.counts()
			if total(c) == 0 {
				continue
			}
			out.Days = append(out.Days, api.AttendanceCalendarDay{Date: d.Date.String(), State: d.Status.String,
				Hours: c, Students: anyOf(c), Recorded: 1})
		}
		return nil
	})
	return out, err
}

// calendar is an empty month with its neighbours.
func calendar(month schoolday.Date) api.AttendanceCalendar {
	return api.AttendanceCalendar{Month: month.MonthString(), Days: []api.AttendanceCalendarDay{},
		Prev: month.AddDate(0, -1, 0).MonthString(), Next: month.AddDate(0, 1, 0).MonthString()}
}

// visibleClasses returns the ids asked for (all the caller may see when
// none), in school order; NotFound for one the caller may not see.
func (s *Store) visibleClasses(ctx context.Context, q sqlx.QueryerContext, sc Scope, ids []int64) ([]class, error) {
	var all []struct {
		class
		Grade int `db:"grade"`
	}
	const qs = `SELECT id, name, grade FROM classes WHERE ($1::bigint = 0 OR homeroom_teacher_id = $1) ORDER BY grade, name, id`
	if err := sqlx.SelectContext(ctx, q, &all, qs, sc.HomeroomID); err != nil {
		return nil, fmt.Errorf("attendancerecap: classes: %w", err)
	}
	if len(ids) == 0 {
		out := make([]class, len(all))
		for i, c := range all {
			out[i] = c.class
		}
		return out, nil
	}
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []class
	for _, c := range all {
		if want[c.ID] {
			out = append(out, c.class)
			delete(want, c.ID)
		}
	}
	if len(want) > 0 {
		return nil, pg.Error(sql.ErrNoRows, "entity.class")
	}
	return out, nil
}
