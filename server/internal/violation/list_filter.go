// The violations list (once package violationlist) reads violations: the filtered, scoped, paged list,
// one violation with its photos and handling records, and the 19-column
// xlsx export streamed from a database cursor. Its Filter (parsed from the
// list's query string) and its WHERE builder are the one place the list,
// the export and the reports narrow violations.
package violation

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/roster"
	"github.com/tatib/tatib/shared/api"
)

// Recorder filter values besides a user id.
const RecorderJournal = "journal"

// MaxQ is the longest student search accepted.
const MaxQ = 100

// Args collects positional query parameters ($1, $2, …).
type Args []any

// Add appends v and returns its placeholder.
func (a *Args) Add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// SQL is the scope's condition on the violation aliased v ("TRUE" for
// everyone but a homeroom teacher).
func (sc Scope) SQL(a *Args) string {
	if sc.HomeroomID == 0 {
		return "TRUE"
	}
	h := a.Add(sc.HomeroomID)
	return `(v.class_id IN (SELECT id FROM classes WHERE homeroom_teacher_id = ` + h + `)
		OR v.student_id IN (SELECT st.id FROM students st JOIN classes hc ON hc.id = st.class_id WHERE hc.homeroom_teacher_id = ` + h + `))`
}

// Filter narrows the violation list, the export and the reports. Zero
// values do not filter.
type Filter struct {
	// From and To bound occurred_on (the Jakarta day), inclusive, YYYY-MM-DD.
	From, To string
	// DepartmentID and Grade are those of the violation's class as it was
	// that day; ClassID is that class.
	DepartmentID int64
	Grade        int
	ClassID      int64
	CategoryID   int64
	TypeID       int64
	// HandlingStatus is unhandled, in_progress or resolved.
	HandlingStatus string
	Verified       *bool
	// RecorderID is a user; Journal asks for what the journal sync recorded
	// (recorded_by null).
	RecorderID int64
	Journal    bool
	StudentID  int64
	// Source is behaviour (everything but the automatic attendance
	// violations), attendance (the automatic alpha/late ones) or "" for
	// both.
	Source string
	// Q searches the student's name, NIS or NISN.
	Q string
	// Sort is one of Sorts' keys; "" is the newest first.
	Sort string
}

// Sorts are the list's orders: a name, "-" in front for descending. Only
// these reach the SQL.
var Sorts = map[string]string{
	"-occurred_at": `v.occurred_at DESC, v.id DESC`,
	"occurred_at":  `v.occurred_at, v.id`,
	"-points":      `v.points DESC, v.occurred_at DESC, v.id DESC`,
	"points":       `v.points, v.occurred_at DESC, v.id DESC`,
	"student":      `lower(s.full_name), s.id, v.occurred_at DESC, v.id DESC`,
	"-student":     `lower(s.full_name) DESC, s.id DESC, v.occurred_at DESC, v.id DESC`,
	"class":        `lower(` + classNameSQL + `), lower(s.full_name), v.occurred_at DESC, v.id DESC`,
	"-class":       `lower(` + classNameSQL + `) DESC, lower(s.full_name), v.occurred_at DESC, v.id DESC`,
}

// DefaultSort is the newest first.
const DefaultSort = "-occurred_at"

// classNameSQL is the class as it was that day: the name kept on the
// violation, else the class's current name.
const classNameSQL = `CASE WHEN v.class_name <> '' THEN v.class_name ELSE coalesce(c.name, '') END`

// ParseFilter reads the list's query parameters. A value that is not valid
// is an Invalid error with a field error per parameter.
func ParseFilter(q url.Values) (Filter, error) {
	var f Filter
	fe := apperr.Fields{}
	date := func(name string) string {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			return ""
		}
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			fe.Add(name, "violationlist.filter.date")
			return ""
		}
		return v
	}
	id := func(name string) int64 {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			fe.Add(name, "violationlist.filter.id")
			return 0
		}
		return n
	}
	f.From, f.To = date("from"), date("to")
	if f.From != "" && f.To != "" && f.To < f.From {
		fe.Add("to", "violationlist.filter.date_order")
	}
	f.DepartmentID = id("department_id")
	f.ClassID = id("class_id")
	f.CategoryID = id("category_id")
	f.TypeID = id("type_id")
	f.StudentID = id("student_id")
	if v := strings.TrimSpace(q.Get("grade")); v != "" {
		g, err := strconv.Atoi(v)
		if err != nil || g < roster.MinGrade || g > roster.MaxGrade {
			fe.Add("grade", "violationlist.filter.grade", "min", roster.MinGrade, "max", roster.MaxGrade)
		} else {
			f.Grade = g
		}
	}
	switch v := strings.TrimSpace(q.Get("handling_status")); v {
	case "", api.HandlingUnhandled, api.HandlingInProgress, api.HandlingResolved:
		f.HandlingStatus = v
	default:
		fe.Add("handling_status", "violationlist.filter.handling_status")
	}
	switch v := strings.TrimSpace(q.Get("verified")); v {
	case "":
	case "true", "1":
		t := true
		f.Verified = &t
	case "false", "0":
		no := false
		f.Verified = &no
	default:
		fe.Add("verified", "violationlist.filter.boolean")
	}
	switch v := strings.TrimSpace(q.Get("recorder")); v {
	case "":
	case RecorderJournal:
		f.Journal = true
	default:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			fe.Add("recorder", "violationlist.filter.recorder")
		} else {
			f.RecorderID = n
		}
	}
	if src, ok := ParseSource(q.Get("source")); ok {
		f.Source = src
		if src == api.SourceAll {
			f.Source = ""
		}
	} else {
		fe.Add("source", "violationlist.filter.source")
	}
	f.Q = strings.TrimSpace(q.Get("q"))
	if utf8.RuneCountInString(f.Q) > MaxQ {
		fe.Add("q", "violationlist.filter.q_too_long", "max", MaxQ)
	}
	f.Sort = strings.TrimSpace(q.Get("sort"))
	if _, ok := Sorts[f.Sort]; f.Sort != "" && !ok {
		fe.Add("sort", "violationlist.filter.sort")
	}
	if len(fe) > 0 {
		return Filter{}, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("violationlist.filter.invalid"), Fields: fe}
	}
	return f, nil
}

// Where is the filter and the scope as one condition on the violation
// aliased v. It refers to no other alias (department, grade, category and
// the student search are sub-selects), so any query over "violations v"
// can use it.
func (f Filter) Where(sc Scope, a *Args) string {
	conds := []string{sc.SQL(a)}
	add := func(c string) { conds = append(conds, c) }
	if f.From != "" {
		add("v.occurred_on >= " + a.Add(f.From) + "::date")
	}
	if f.To != "" {
		add("v.occurred_on <= " + a.Add(f.To) + "::date")
	}
	if f.ClassID != 0 {
		add("v.class_id = " + a.Add(f.ClassID))
	}
	if f.DepartmentID != 0 {
		add("v.class_id IN (SELECT id FROM classes WHERE department_id = " + a.Add(f.DepartmentID) + ")")
	}
	if f.Grade != 0 {
		add("v.class_id IN (SELECT id FROM classes WHERE grade = " + a.Add(f.Grade) + ")")
	}
	if f.TypeID != 0 {
		add("v.violation_type_id = " + a.Add(f.TypeID))
	}
	if f.CategoryID != 0 {
		add("v.violation_type_id IN (SELECT id FROM violation_types WHERE category_id = " + a.Add(f.CategoryID) + ")")
	}
	if f.HandlingStatus != "" {
		add("v.handling_status = " + a.Add(f.HandlingStatus))
	}
	if f.Verified != nil {
		if *f.Verified {
			add("v.verified_at IS NOT NULL")
		} else {
			add("v.verified_at IS NULL")
		}
	}
	if f.Journal {
		add("v.recorded_by IS NULL")
	} else if f.RecorderID != 0 {
		add("v.recorded_by = " + a.Add(f.RecorderID))
	}
	if f.StudentID != 0 {
		add("v.student_id = " + a.Add(f.StudentID))
	}
	if c := SourceSQL(f.Source); c != "" {
		add(c)
	}
	if f.Q != "" {
		p := a.Add(likePattern(f.Q))
		add("v.student_id IN (SELECT id FROM students WHERE lower(full_name) LIKE " + p + " OR nisn LIKE " + p + " OR lower(nis) LIKE " + p + ")")
	}
	return strings.Join(conds, "\n\t  AND ")
}

// ParseSource reads the "Sumber" parameter: behaviour, attendance or all
// ("" is all; manual, its name before behaviour, is behaviour). ok is
// false for anything else.
func ParseSource(v string) (source string, ok bool) {
	switch v = strings.TrimSpace(v); v {
	case "", api.SourceAll:
		return api.SourceAll, true
	case api.SourceBehaviour, api.SourceManual:
		return api.SourceBehaviour, true
	case api.SourceAttendance:
		return api.SourceAttendance, true
	}
	return "", false
}

// SourceSQL is source's condition on the violation aliased v ("" for
// all). Behaviour is "not an automatic attendance violation", so a source
// added later is behaviour until it is named here.
func SourceSQL(source string) string {
	switch source {
	case api.SourceBehaviour:
		return "v.source <> 'attendance'"
	case api.SourceAttendance:
		return "v.source = 'attendance'"
	}
	return ""
}

// OrderBy is the filter's order, from the whitelist only. It refers to the
// aliases v, s (students) and c (the violation's class).
func (f Filter) OrderBy() string {
	if o, ok := Sorts[f.Sort]; ok {
		return o
	}
	return Sorts[DefaultSort]
}

// likePattern makes q a LIKE "contains" pattern with its wildcards escaped.
func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(q)) + "%"
}
