// Package report serves the violation recap report: a period (a date
// range, a month, a semester, an academic year) and a scope (one class, a
// grade, a department, the whole school) as JSON for the screen and as a
// landscape PDF on the school's letterhead. A homeroom teacher's report is
// their own class, enforced in SQL; asking for anything else is refused.
// See docs/reports.md, "Violation recap report".
package report

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// Years a period may name: wide enough for any school, narrow enough that
// a typo is answered instead of scanned.
const (
	minYear = 2000
	maxYear = 2100
)

// Detail page of the JSON report.
const defaultDetailLimit = 100

var (
	yearRE = regexp.MustCompile(`^\d{4}$`)
)

// Query is a validated report request.
type Query struct {
	Period api.RecapPeriod
	// From and To are the period's days, both included.
	From, To schoolday.Date
	// At most one of these is set; none is the whole school.
	ClassID      int64
	Grade        int
	DepartmentID int64
	// Source is behaviour, attendance or all (the default).
	Source string
	// The JSON report's page of detail rows.
	DetailOffset, DetailLimit int
}

// ParseQuery reads the report's query (api.RecapPeriod* documents the
// period parameters); every bad or contradictory value is a field error.
// prof gives the academic year's first day.
func ParseQuery(q url.Values, now time.Time, prof school.Profile) (Query, error) {
	f := apperr.Fields{}
	var out Query
	get := func(name string) string { return strings.TrimSpace(q.Get(name)) }
	from, to, month, ay, sem := get("from"), get("to"), get("month"), get("academic_year"), get("semester")

	kind := get("period")
	if kind == "" {
		switch {
		case from != "" || to != "":
			kind = api.RecapPeriodRange
		case month != "":
			kind = api.RecapPeriodMonth
		case ay != "" && sem != "":
			kind = api.RecapPeriodSemester
		case ay != "":
			kind = api.RecapPeriodAcademicYear
		case sem != "":
			f.Add("academic_year", "report.period.academic_year_required")
		default:
			kind = api.RecapPeriodMonth
			month = schoolday.DateOf(now).MonthString()
		}
	}
	// Parameters the period does not use are refused rather than ignored:
	// a report of a different period than the one asked for must not
	// come back silently.
	unused := func(names ...string) {
		for _, n := range names {
			if get(n) != "" {
				f.Add(n, "report.period.unused", "period", locale.Key("report.kind."+kind))
			}
		}
	}
	yearOf := func(field, v string) int {
		n, err := strconv.Atoi(v)
		if !yearRE.MatchString(v) || err != nil {
			f.Add(field, "report.period.year")
			return 0
		}
		if n < minYear || n > maxYear {
			f.Add(field, "report.period.year_range", "min", minYear, "max", maxYear)
			return 0
		}
		return n
	}
	out.Period.Kind = kind
	switch kind {
	case api.RecapPeriodRange:
		unused("month", "academic_year", "semester")
		a, okA := parseDay(f, "from", from)
		b, okB := parseDay(f, "to", to)
		if okA && okB {
			switch {
			case b.Before(a):
				f.Add("to", "report.period.order")
			case b.DaysSince(a)+1 > api.RecapMaxDays:
				f.Add("to", "report.period.too_long", "max", api.RecapMaxDays)
			}
		}
		out.From, out.To = a, b
	case api.RecapPeriodMonth:
		unused("from", "to", "academic_year", "semester")
		if month == "" {
			f.Add("month", "report.period.month_required")
			break
		}
		first, err := schoolday.ParseMonth(month)
		if err != nil {
			f.Add("month", "report.period.month")
			break
		}
		if first.Year() < minYear || first.Year() > maxYear {
			f.Add("month", "report.period.year_range", "min", minYear, "max", maxYear)
			break
		}
		out.From, out.To = first, first.AddDate(0, 1, -1)
		out.Period.Month = month
	case api.RecapPeriodSemester, api.RecapPeriodAcademicYear:
		unused("from", "to", "month")
		if ay == "" {
			f.Add("academic_year", "report.period.academic_year_required")
			break
		}
		y := yearOf("academic_year", ay)
		s := 0
		if kind == api.RecapPeriodSemester {
			switch sem {
			case "":
				f.Add("semester", "report.period.semester_required")
			case "1", "2":
				s, _ = strconv.Atoi(sem)
			default:
				f.Add("semester", "report.period.semester")
			}
		} else {
			unused("semester")
		}
		if y == 0 || (kind == api.RecapPeriodSemester && s == 0) {
			break
		}
		// The academic year "y" is the one that starts in y: the one
		// containing 31 December of y.
		start := prof.YearStartOf(schoolday.NewDate(y, 12, 31))
		out.From, out.To = start, start.AddDate(1, 0, -1)
		if s == 1 {
			out.To = start.AddDate(0, 6, -1)
		} else if s == 2 {
			out.From = start.AddDate(0, 6, 0)
		}
		out.Period.AcademicYear, out.Period.Semester = y, s
	default:
		f.Add("period", "report.period.kind")
	}

	// Scope: at most one of class_id, grade, department_id.
	id := func(name string) int64 {
		v := get(name)
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			f.Add(name, "report.scope.id")
			return 0
		}
		return n
	}
	out.ClassID, out.DepartmentID = id("class_id"), id("department_id")
	if v := get("grade"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 12 {
			f.Add("grade", "report.scope.grade")
		}
		out.Grade = n
	}
	given := 0
	for _, n := range []string{"class_id", "grade", "department_id"} {
		if get(n) != "" {
			given++
		}
	}
	if given > 1 {
		for _, n := range []string{"class_id", "grade", "department_id"} {
			if get(n) != "" {
				f.Add(n, "report.scope.one")
			}
		}
	}

	if src, ok := violation.ParseSource(get("source")); ok {
		out.Source = src
	} else {
		f.Add("source", "violationlist.filter.source")
	}

	out.DetailLimit = defaultDetailLimit
	if v := get("detail_limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > api.RecapDetailLimitMax {
			f.Add("detail_limit", "report.detail_limit", "max", api.RecapDetailLimitMax)
		}
		out.DetailLimit = n
	}
	if v := get("detail_offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 10_000_000 {
			f.Add("detail_offset", "report.detail_offset")
		}
		out.DetailOffset = n
	}
	if err := f.Err(); err != nil {
		return Query{}, err
	}
	out.Period.From, out.Period.To = out.From.String(), out.To.String()
	return out, nil
}

// parseDay reads a required YYYY-MM-DD into f under field.
func parseDay(f apperr.Fields, field, v string) (schoolday.Date, bool) {
	if v == "" {
		f.Add(field, "report.period.date_required")
		return schoolday.Date{}, false
	}
	d, err := schoolday.ParseDate(v)
	if err != nil {
		f.Add(field, "report.period.date")
		return schoolday.Date{}, false
	}
	if d.Year() < minYear || d.Year() > maxYear {
		f.Add(field, "report.period.year_range", "min", minYear, "max", maxYear)
		return schoolday.Date{}, false
	}
	return d, true
}
