// Package attendancerecap serves the attendance recaps (per class: daily,
// weekly, monthly; the whole school), the weekly xlsx export and the month
// calendars of a class and of a student. Everything but the daily grid
// reads attendance_days, the per student-day hour counts the core keeps in
// step with attendance, so a month of the whole school is about 33,000
// rows however many lesson hours a day has. See docs/attendance.md.
package attendancerecap

import (
	"database/sql"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Periods of a recap.
const (
	Daily    = "daily"
	Weekly   = "weekly"
	Monthly  = "monthly"
	Semester = "semester"
)

// Calendar day states of a class: every active student of the class has at
// least one stored hour that day, or only some have.
const (
	StateComplete = "complete"
	StatePartial  = "partial"
)

// Years a date or month may name: wide enough for any school, narrow
// enough that a typo is answered instead of scanned.
const (
	minYear = 2000
	maxYear = 2100
)

// Period is a validated recap period: its kind and its days, From..To
// inclusive. A semester period
// as parsed holds only the date asked for; the store widens it to the
// semester by the school's academic-year start (Store.resolve), and Year
// and Number then name it.
type Period struct {
	Kind         string
	From, To     schoolday.Date
	Year, Number int
}

// Dates lists the period's days as YYYY-MM-DD.
func (p Period) Dates() []string {
	var out []string
	for d := p.From; !d.After(p.To); d = d.AddDays(1) {
		out = append(out, d.String())
	}
	return out
}

// parseDate reads a YYYY-MM-DD query value into f under field; "" is
// Jakarta's today.
func parseDate(f apperr.Fields, field, v string, now time.Time) schoolday.Date {
	if v == "" {
		return schoolday.DateOf(now)
	}
	d, err := schoolday.ParseDate(v)
	if err != nil {
		f.Add(field, "attendancerecap.date")
		return schoolday.DateOf(now)
	}
	if d.Year() < minYear || d.Year() > maxYear {
		f.Add(field, "attendancerecap.year", "min", strconv.Itoa(minYear), "max", strconv.Itoa(maxYear))
	}
	return d
}

// ParsePeriod reads period (daily, weekly, monthly, semester; default
// daily) and date (YYYY-MM-DD; default Jakarta's today). Weekly is the
// Monday..Sunday week of the date; monthly its calendar month; semester the
// half of the academic year containing it (resolved by the store).
func ParsePeriod(q url.Values, now time.Time) (Period, error) {
	f := apperr.Fields{}
	kind := q.Get("period")
	if kind == "" {
		kind = Daily
	}
	if kind != Daily && kind != Weekly && kind != Monthly && kind != Semester {
		f.Add("period", "attendancerecap.period")
	}
	d := parseDate(f, "date", q.Get("date"), now)
	if err := f.Err(); err != nil {
		return Period{}, err
	}
	return periodOf(kind, d), nil
}

// periodOf is the period of kind containing d.
func periodOf(kind string, d schoolday.Date) Period {
	switch kind {
	case Weekly:
		from := d.Monday()
		return Period{Kind: kind, From: from, To: from.AddDays(6)}
	case Monthly:
		from := d.FirstOfMonth()
		return Period{Kind: kind, From: from, To: from.AddDate(0, 1, -1)}
	case Semester:
		return Period{Kind: kind, From: d, To: d}
	default:
		return Period{Kind: Daily, From: d, To: d}
	}
}

// ParseMonth reads month (YYYY-MM, years 2000..2100; default Jakarta's
// current month) and returns its first day.
func ParseMonth(q url.Values, now time.Time) (schoolday.Date, error) {
	v := q.Get("month")
	if v == "" {
		return schoolday.DateOf(now).FirstOfMonth(), nil
	}
	m, err := schoolday.ParseMonth(v)
	if err != nil {
		return schoolday.Date{}, apperr.New(apperr.Invalid, "form.invalid").WithField("month", "attendancerecap.month")
	}
	if m.Year() < minYear || m.Year() > maxYear {
		return schoolday.Date{}, apperr.New(apperr.Invalid, "form.invalid").WithField("month", "attendancerecap.year", "min", strconv.Itoa(minYear), "max", strconv.Itoa(maxYear))
	}
	return m, nil
}

// dayCounts is one student-day row of attendance_days, with its day
// status by the school's rule when the query classified it.
type dayCounts struct {
	StudentID int64          `db:"student_id"`
	Date      schoolday.Date `db:"date"`
	H         int            `db:"h"`
	S         int            `db:"s"`
	I         int            `db:"i"`
	A         int            `db:"a"`
	T         int            `db:"t"`
	Status    sql.NullString `db:"status"`
}

func (d dayCounts) counts() api.AttendanceCounts {
	return api.AttendanceCounts{H: d.H, S: d.S, I: d.I, A: d.A, T: d.T}
}

// add adds b's hours to a.
func add(a *api.AttendanceCounts, b api.AttendanceCounts) {
	a.H += b.H
	a.S += b.S
	a.I += b.I
	a.A += b.A
	a.T += b.T
}

// anyOf counts 1 under each status b has at least one hour of: unique
// students, not entries.
func anyOf(b api.AttendanceCounts) api.AttendanceCounts {
	one := func(n int) int {
		if n > 0 {
			return 1
		}
		return 0
	}
	return api.AttendanceCounts{H: one(b.H), S: one(b.S), I: one(b.I), A: one(b.A), T: one(b.T)}
}

func total(c api.AttendanceCounts) int { return c.H + c.S + c.I + c.A + c.T }

// addStatus counts one under status st (H, S, I, A or T; anything else,
// such as "" for a day with nothing stored, counts nowhere).
func addStatus(c *api.AttendanceCounts, st string) {
	switch st {
	case api.AttendancePresent:
		c.H++
	case api.AttendanceSick:
		c.S++
	case api.AttendanceExcused:
		c.I++
	case api.AttendanceAlpha:
		c.A++
	case api.AttendanceLate:
		c.T++
	}
}

// Percentage is present hours (H + T) of stored hours, 0..100 with one
// decimal (half away from zero); nil when nothing is stored.
func Percentage(c api.AttendanceCounts) *float64 {
	n := total(c)
	if n == 0 {
		return nil
	}
	p := math.Round(float64(c.H+c.T)*1000/float64(n)) / 10
	return &p
}
