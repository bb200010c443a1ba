// Package dashboard answers GET /dashboard (one answer shaped by the
// caller's role and permissions: a section whose list the caller may not
// open is null, a homeroom teacher's figures cover their own class, in
// SQL) and GET /dashboard/violation-calendar (one month's violations per
// day). Every figure carries the path and query of the list it
// summarises. See docs/reports.md, "Dashboards".
package dashboard

import (
	"net/url"
	"strconv"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
)

// The years a calendar month may be asked for.
const minYear, maxYear = 2000, 2100

// Periods are the school days a dashboard is taken on.
type Periods struct {
	Today schoolday.Date
	// PrevDay is the previous school day (Monday..Friday) before Today.
	PrevDay schoolday.Date
	// Week is this week's Monday; PrevWeek and PrevWeekTo the previous
	// week up to the same weekday.
	Week, PrevWeek, PrevWeekTo schoolday.Date
	// Month is this month's first day, MonthEnd its last; PrevMonth and
	// PrevMonthTo the previous month up to the same day (its last day when
	// shorter).
	Month, MonthEnd, PrevMonth, PrevMonthTo schoolday.Date
	// TrendFrom is the Monday eleven weeks before Week.
	TrendFrom schoolday.Date
}

// PeriodsOn returns the periods of the Jakarta day of now.
func PeriodsOn(now time.Time) Periods {
	t := schoolday.DateOf(now)
	p := Periods{Today: t}
	p.PrevDay = t.AddDays(-1)
	for p.PrevDay.Weekday() == time.Saturday || p.PrevDay.Weekday() == time.Sunday {
		p.PrevDay = p.PrevDay.AddDays(-1)
	}
	p.Week = t.Monday()
	p.PrevWeek, p.PrevWeekTo = p.Week.AddDays(-7), t.AddDays(-7)
	p.Month = t.FirstOfMonth()
	p.MonthEnd = p.Month.AddDate(0, 1, -1)
	p.PrevMonth = p.Month.AddDate(0, -1, 0)
	p.PrevMonthTo = p.PrevMonth.AddDays(t.Day() - 1)
	if last := p.Month.AddDays(-1); p.PrevMonthTo.After(last) {
		p.PrevMonthTo = last
	}
	p.TrendFrom = p.Week.AddDays(-7 * (TrendWeeks - 1))
	return p
}

// TrendWeeks is the length of the weekly trend.
const TrendWeeks = 12

// earliest is the first day any period figure reads.
func (p Periods) earliest() schoolday.Date {
	e := p.PrevMonth
	for _, d := range []schoolday.Date{p.PrevWeek, p.PrevDay} {
		if d.Before(e) {
			e = d
		}
	}
	return e
}

func iso(d schoolday.Date) string { return d.String() }

// link is path with query pairs (key, value, ...), empty values left out.
func link(path string, kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// The lists the figures link to (the front end's routes).
const (
	violationsPath    = "/violations"
	lettersPath       = "/surat-peringatan"
	attendanceRecap   = "/absensi/rekap"
	attendanceForm    = "/absensi"
	earlyWarningsPath = "/peringatan-dini"
	studentsPath      = "/students"
)

// violationsLink is the violation list of source from..to (inclusive)
// with more filters. The source is always there, all included: without
// it the list would open with its user's own Sumber, not the figure's.
func violationsLink(source string, from, to schoolday.Date, kv ...string) string {
	return link(violationsPath, append([]string{"from", iso(from), "to", iso(to), "source", source}, kv...)...)
}

// openLink is the violation list of source, every date, with a handling
// status.
func openLink(source, status string) string {
	return link(violationsPath, "period", "all", "handling_status", status, "source", source)
}

func id(n int64) string { return strconv.FormatInt(n, 10) }

// ParseSource reads ?source= (behaviour, attendance or all; all when
// absent).
func ParseSource(q url.Values) (string, error) {
	src, ok := violation.ParseSource(q.Get("source"))
	if !ok {
		return "", apperr.New(apperr.Invalid, "form.invalid").WithField("source", "violationlist.filter.source")
	}
	return src, nil
}

// ParseMonth reads ?month=YYYY-MM; this month (Jakarta) when absent.
func ParseMonth(q url.Values, now time.Time) (schoolday.Date, error) {
	v := q.Get("month")
	if v == "" {
		return schoolday.DateOf(now).FirstOfMonth(), nil
	}
	m, err := schoolday.ParseMonth(v)
	if err != nil {
		return schoolday.Date{}, apperr.New(apperr.Invalid, "form.invalid").WithField("month", "dashboard.month")
	}
	if m.Year() < minYear || m.Year() > maxYear {
		return schoolday.Date{}, apperr.New(apperr.Invalid, "form.invalid").WithField("month", "dashboard.year",
			"min", strconv.Itoa(minYear), "max", strconv.Itoa(maxYear))
	}
	return m, nil
}
