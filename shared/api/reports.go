package api

import "time"

// Periods of the violation recap report (query parameter "period").
//
//   - range: from=YYYY-MM-DD and to=YYYY-MM-DD, both required, at most
//     RecapMaxDays days.
//   - month: month=YYYY-MM.
//   - semester: academic_year=YYYY (the first year of the academic year,
//     2025 for 2025/2026) and semester=1|2; the first semester is the
//     academic year's first six months, the second the last six.
//   - academic_year: academic_year=YYYY.
//
// Without "period" the kind is read from what is given: from/to → range,
// month → month, academic_year with semester → semester, academic_year →
// academic_year, nothing → this month (Asia/Jakarta).
const (
	RecapPeriodRange        = "range"
	RecapPeriodMonth        = "month"
	RecapPeriodSemester     = "semester"
	RecapPeriodAcademicYear = "academic_year"
)

// RecapMaxDays caps a date range: two years.
const RecapMaxDays = 731

// Scopes of the violation recap report: at most one of class_id, grade and
// department_id is given; none is the whole school. A homeroom teacher's
// report is their own class whatever is asked: asking for anything else is
// refused (403), never answered with a different report.
const (
	RecapScopeSchool     = "school"
	RecapScopeClass      = "class"
	RecapScopeGrade      = "grade"
	RecapScopeDepartment = "department"
)

// RecapDetailLimitMax caps detail_limit of the JSON report (the PDF has
// every row).
const RecapDetailLimitMax = 500

// RecapPeriod is the period a report covers, resolved to dates.
type RecapPeriod struct {
	Kind string `json:"kind" jsonschema:"enum=range,enum=month,enum=semester,enum=academic_year"`
	// From and To are Asia/Jakarta days, YYYY-MM-DD, both included.
	From string `json:"from" jsonschema:"format=date"`
	To   string `json:"to" jsonschema:"format=date"`
	// Month (YYYY-MM), AcademicYear (the first year) and Semester (1|2)
	// are set for the kinds that use them.
	Month        string `json:"month,omitempty"`
	AcademicYear int    `json:"academic_year,omitempty"`
	Semester     int    `json:"semester,omitempty"`
}

// RecapScope is who a report covers.
type RecapScope struct {
	Kind           string `json:"kind" jsonschema:"enum=school,enum=class,enum=grade,enum=department"`
	ClassID        int64  `json:"class_id,omitempty"`
	ClassName      string `json:"class_name,omitempty"`
	Grade          int    `json:"grade,omitempty"`
	DepartmentID   int64  `json:"department_id,omitempty"`
	DepartmentName string `json:"department_name,omitempty"`
}

// RecapCategory is one violation category: the columns of the per-class
// summary, in the categories' order.
type RecapCategory struct {
	ID     int64  `json:"id" db:"id"`
	Name   string `json:"name" db:"name"`
	Colour string `json:"colour" db:"colour"`
}

// RecapTotals are the report's figures over every row.
type RecapTotals struct {
	Violations int `json:"violations"`
	// Students is the number of distinct students involved.
	Students int `json:"students"`
	Points   int `json:"points"`
}

// RecapClassRow is one class of the summary: the class as it was on the
// day of each violation (violations.class_name), so a promoted student's
// old violations stay with their old class.
type RecapClassRow struct {
	ClassID    *int64 `json:"class_id"`
	ClassName  string `json:"class_name"`
	Violations int    `json:"violations"`
	Students   int    `json:"students"`
	Points     int    `json:"points"`
	// ByCategory counts the violations per category, aligned with
	// ViolationRecap.Categories.
	ByCategory []int `json:"by_category"`
}

// RecapStudentRow is one student of the report.
type RecapStudentRow struct {
	StudentID int64  `json:"student_id" db:"student_id"`
	FullName  string `json:"full_name" db:"full_name"`
	NIS       string `json:"nis" db:"nis"`
	// ClassName is the class of the student's latest violation in the
	// period.
	ClassName  string `json:"class_name" db:"class_name"`
	Violations int    `json:"violations" db:"violations"`
	Points     int    `json:"points" db:"points"`
	// SPLevel is the highest warning letter (not withdrawn) of the
	// academic year of the period's end issued by its end; 0 = none.
	SPLevel int    `json:"sp_level" db:"sp_level"`
	SPName  string `json:"sp_name" db:"sp_name"`
	// The student's points of the academic year of the period's end, up to
	// that end (student_year_points, as the ledger counts): YearGross the
	// violations' points, YearReduced the points policy's reductions,
	// YearTotal the net total the letters follow. Points above is the
	// period's violations only (gross).
	YearGross   int `json:"year_gross" db:"year_gross" jsonschema_description:"The violations' points of the academic year of the period's end, up to that end."`
	YearReduced int `json:"year_reduced" db:"year_reduced" jsonschema_description:"The points policy's reductions (offset, amnesty) of that year up to the period's end."`
	YearTotal   int `json:"year_total" db:"year_total" jsonschema_description:"The net year total (year_gross less year_reduced), as the ledger and the letters count it."`
}

// RecapDetailRow is one violation of the report.
type RecapDetailRow struct {
	ID int64 `json:"id"`
	// OccurredOn is the Asia/Jakarta day, YYYY-MM-DD.
	OccurredOn  string `json:"occurred_on" jsonschema:"format=date"`
	StudentID   int64  `json:"student_id"`
	StudentName string `json:"student_name"`
	// ClassName is the class as it was that day.
	ClassName    string `json:"class_name"`
	TypeName     string `json:"type_name"`
	CategoryName string `json:"category_name"`
	// Description is the violation's own description (may be empty).
	Description    string `json:"description"`
	Points         int    `json:"points"`
	HandlingStatus string `json:"handling_status" jsonschema:"enum=unhandled,enum=in_progress,enum=resolved"`
}

// ViolationRecap is GET /reports/violation-recap: the report's summary and
// one page of its detail rows (detail_offset, detail_limit; the PDF at
// /reports/violation-recap.pdf has them all).
type ViolationRecap struct {
	Period RecapPeriod `json:"period"`
	Scope  RecapScope  `json:"scope"`
	// Source is the violations counted (query parameter source):
	// behaviour, attendance or all (the default).
	Source     string            `json:"source" jsonschema:"enum=behaviour,enum=attendance,enum=all" jsonschema_description:"the violations counted (the source parameter; all when absent)"`
	Totals     RecapTotals       `json:"totals"`
	Categories []RecapCategory   `json:"categories"`
	Classes    []RecapClassRow   `json:"classes"`
	Students   []RecapStudentRow `json:"students"`
	Details    []RecapDetailRow  `json:"details"`
	// DetailOffset and DetailLimit echo the page of Details; the number of
	// all detail rows is Totals.Violations.
	DetailOffset int       `json:"detail_offset"`
	DetailLimit  int       `json:"detail_limit"`
	GeneratedAt  time.Time `json:"generated_at"`
	// Cases are the period's cases counted (no case, no name): for a
	// holder of cases.view_counts and the whole school's report only,
	// else null (docs/cases.md, "The semester report").
	Cases *RecapCases `json:"cases" jsonschema_description:"The period's cases counted (by the day they happened, Asia/Jakarta): for a holder of cases.view_counts on the whole school's report only, else null. Never a case, a title or a name."`
}

// RecapCases counts the cases that happened in the report's period. Keys:
// ByCategory the category id (Label its name); ByStage identification,
// handling, conclusions, closed (the stage now); ByClassification
// school_rule, suspected_law and "" (not classified yet). Referred is the
// cases with a referral to the Pokja recorded.
type RecapCases struct {
	Total            int         `json:"total" db:"total"`
	Referred         int         `json:"referred" db:"referred" jsonschema_description:"cases with a referral to the Pokja recorded"`
	ByCategory       []CaseCount `json:"by_category" jsonschema_description:"key: the category id; label: its name"`
	ByStage          []CaseCount `json:"by_stage" jsonschema_description:"key: identification, handling, conclusions, closed (the stage now)"`
	ByClassification []CaseCount `json:"by_classification" jsonschema_description:"key: school_rule, suspected_law, or empty (not classified yet)"`
}
