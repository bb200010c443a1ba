package api

// Dashboard is GET /dashboard: one answer shaped by the caller. A section
// the caller may not see (its list's permission is missing) is null; a
// homeroom teacher's sections cover their own class only. Every figure
// carries Link: the path and query of the list it summarises, filters
// applied (e.g. "/violations?from=2026-11-01&to=2026-11-30&type_id=3").
type Dashboard struct {
	// Today is the Jakarta date the figures are taken on, YYYY-MM-DD.
	Today string `json:"today" jsonschema:"format=date"`
	// Month is this month's first and last day, the period of the
	// by-category, top-type, class and letter figures.
	MonthFrom string `json:"month_from" jsonschema:"format=date"`
	MonthTo   string `json:"month_to" jsonschema:"format=date"`
	// Scope is "school" (the whole school) or "class" (a homeroom
	// teacher's own class: Class names it, null when they have none).
	Scope string             `json:"scope" jsonschema:"enum=school,enum=class"`
	Class *DashboardClassRef `json:"class"`
	// Source is the "Sumber" the violation figures (counts, categories,
	// types, classes, trend) and the early-warning counts were taken with:
	// behaviour, attendance or all (query parameter source, all when
	// absent). Every violation link carries it.
	Source string `json:"source" jsonschema:"enum=behaviour,enum=attendance,enum=all" jsonschema_description:"the source the violation figures and early-warning counts were taken with"`
	// FollowUpOwner is the school's setting: who follows up automatic
	// attendance violations (homeroom_teacher or counselor).
	FollowUpOwner string `json:"follow_up_owner" jsonschema:"enum=homeroom_teacher,enum=counselor" jsonschema_description:"who follows up automatic attendance violations (the school's setting)"`
	// Violations needs violations.view.
	Violations *DashboardViolations `json:"violations"`
	// Caseload is the counselor's (bk) work; needs violations.view.
	Caseload *DashboardCaseload `json:"caseload" jsonschema_description:"bk only"`
	// AttendanceFollowUp is a homeroom teacher's class's open automatic
	// attendance violations, when the school gives their follow-up to
	// homeroom teachers; needs violations.view; null otherwise.
	AttendanceFollowUp *DashboardFollowUp `json:"attendance_follow_up" jsonschema_description:"wali_kelas only, while follow_up_owner is homeroom_teacher: their class's automatic attendance violations not resolved, linked to the list with source=attendance"`
	// Letters needs warning_letters.view.
	Letters *DashboardLetters `json:"letters"`
	// Attendance needs attendance.view.
	Attendance *DashboardAttendance `json:"attendance"`
	// EarlyWarnings needs early_warnings.view.
	EarlyWarnings *DashboardEarlyWarnings `json:"early_warnings"`
	// ParentMessagesFailed is how many parent messages failed (the
	// delivery log, /parent-messages?status=failed); needs
	// parent_messages.manage, null otherwise.
	ParentMessagesFailed *int `json:"parent_messages_failed" jsonschema_description:"failed parent messages (/parent-messages?status=failed); null unless the caller holds parent_messages.manage"`
	// Cases are all cases counted by category, stage and class (counts
	// only); needs cases.view_counts, null otherwise.
	Cases *CaseCounts `json:"cases" openapi:"CaseCounts" jsonschema_description:"all cases counted by category, stage and class of their students (counts only, no case, no name); null unless the caller holds cases.view_counts"`
	// Achievements needs achievements.view; beside the violations.
	Achievements *DashboardAchievements `json:"achievements" jsonschema_description:"needs achievements.view: this month's achievements and those awaiting verification with a student in the dashboard's scope"`
}

// DashboardAchievements are the achievement figures of the dashboard's
// scope (a homeroom teacher's: their class's students).
type DashboardAchievements struct {
	// Month: achievements of this month; Awaiting: not yet verified (any
	// month).
	Month    DashboardCount `json:"month"`
	Awaiting DashboardCount `json:"awaiting"`
}

// DashboardClassRef names the class a homeroom teacher's dashboard covers.
type DashboardClassRef struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
}

// DashboardCount is a number with the previous period's number (Previous
// nil where there is none) and its list.
type DashboardCount struct {
	Count    int    `json:"count"`
	Previous *int   `json:"previous,omitempty" jsonschema_description:"the previous period's number up to the same point"`
	Link     string `json:"link"`
}

// DashboardViolations are the violation figures.
type DashboardViolations struct {
	// Today against the previous school day (Monday..Friday); this week
	// (from Monday) and this month, each against the previous week and
	// month up to the same day.
	Today DashboardCount `json:"today"`
	Week  DashboardCount `json:"week"`
	Month DashboardCount `json:"month"`
	// This month's violations per category, most first.
	ByCategory []DashboardCategory `json:"by_category"`
	// This month's five most frequent types.
	TopTypes []DashboardType `json:"top_types"`
	// This month's classes (as they were that day) by points, most first;
	// at most ten.
	ClassesByPoints []DashboardClassPoints `json:"classes_by_points"`
	// NearestSP: the ten students nearest their next warning-letter level
	// by this academic year's points.
	NearestSP []DashboardNearSP `json:"nearest_sp"`
	// Trend: violations per week (Monday..Sunday) of the last 12 weeks,
	// oldest first, this week last.
	Trend []DashboardWeek `json:"trend"`
}

// DashboardCategory is one category's count.
type DashboardCategory struct {
	ID     int64  `json:"id" db:"id"`
	Name   string `json:"name" db:"name"`
	Colour string `json:"colour" db:"colour"`
	Count  int    `json:"count" db:"count"`
	Link   string `json:"link"`
}

// DashboardType is one violation type's count and points.
type DashboardType struct {
	ID           int64  `json:"id" db:"id"`
	Name         string `json:"name" db:"name"`
	CategoryName string `json:"category_name" db:"category_name"`
	Count        int    `json:"count" db:"count"`
	Points       int    `json:"points" db:"points"`
	Link         string `json:"link"`
}

// DashboardClassPoints is one class's points and count.
type DashboardClassPoints struct {
	ID     int64  `json:"id" db:"id"`
	Name   string `json:"name" db:"name"`
	Points int    `json:"points" db:"points"`
	Count  int    `json:"count" db:"count"`
	Link   string `json:"link"`
}

// DashboardNearSP is a student close to their next level.
type DashboardNearSP struct {
	StudentID     int64  `json:"student_id" db:"student_id"`
	Name          string `json:"name" db:"name"`
	ClassName     string `json:"class_name" db:"class_name"`
	Points        int    `json:"points" db:"points"`
	NextLevel     int    `json:"next_level" db:"next_level"`
	NextLevelName string `json:"next_level_name" db:"next_level_name"`
	PointsToGo    int    `json:"points_to_go" db:"points_to_go"`
	Link          string `json:"link"`
}

// DashboardWeek is one week of the trend.
type DashboardWeek struct {
	// Week is its Monday, YYYY-MM-DD.
	Week  string `json:"week" jsonschema:"format=date" jsonschema_description:"its Monday"`
	Count int    `json:"count"`
	Link  string `json:"link"`
}

// DashboardCaseload is a counselor's open work ("Tugas BK").
type DashboardCaseload struct {
	// Source is what it counts, whatever the dashboard's Sumber: behaviour
	// while homeroom teachers follow up attendance, all when the counselors
	// do.
	Source     string         `json:"source" jsonschema:"enum=behaviour,enum=all" jsonschema_description:"what it counts: behaviour while homeroom teachers follow up attendance, all when the counselors do"`
	Unhandled  DashboardCount `json:"unhandled"`
	InProgress DashboardCount `json:"in_progress"`
	// Follow-ups of open violations (latest handling's follow_up_on) due
	// today and before today.
	FollowUpsToday   DashboardCount `json:"follow_ups_today"`
	FollowUpsOverdue DashboardCount `json:"follow_ups_overdue"`
}

// DashboardFollowUp is the automatic attendance violations not resolved
// yet, each count linked to its list (source=attendance, every date).
type DashboardFollowUp struct {
	Unhandled  DashboardCount `json:"unhandled"`
	InProgress DashboardCount `json:"in_progress"`
}

// DashboardLetters are this month's warning letters by status.
type DashboardLetters struct {
	Total    DashboardCount         `json:"total"`
	ByStatus []DashboardLetterCount `json:"by_status"`
}

// DashboardLetterCount is one status's count.
type DashboardLetterCount struct {
	Status string `json:"status" jsonschema:"enum=draft,enum=printed,enum=signed,enum=delivered,enum=withdrawn"`
	Count  int    `json:"count"`
	Link   string `json:"link"`
}

// DashboardAttendance is today's attendance: unique students per status
// (a student with an A hour and an H hour counts under both).
type DashboardAttendance struct {
	Date     string           `json:"date" jsonschema:"format=date"`
	Students AttendanceCounts `json:"students" jsonschema_description:"unique students with any hour of each status today"`
	// Recorded: students with any stored hour today; Total: active
	// students in scope.
	Recorded int    `json:"recorded"`
	Total    int    `json:"total"`
	Link     string `json:"link"`
	// NotFilled: a homeroom teacher's students with nothing stored today,
	// linked to today's class form; null for everyone else.
	NotFilled *DashboardCount `json:"not_filled"`
}

// DashboardEarlyWarnings are the early-warning counts and their page.
type DashboardEarlyWarnings struct {
	Counts EarlyWarningCounts `json:"counts"`
	Link   string             `json:"link"`
}

// ViolationCalendar is GET /dashboard/violation-calendar: one month's
// violations per day, scoped like the list, of one source (?source=).
type ViolationCalendar struct {
	Month string `json:"month"` // YYYY-MM
	// Source is behaviour, attendance or all; the days' links carry it.
	Source string `json:"source" jsonschema:"enum=behaviour,enum=attendance,enum=all"`
	// Days: only dates with violations, in order.
	Days []ViolationCalendarDay `json:"days"`
	// Max is the largest day's count (the colour scale), Total the month's.
	Max   int `json:"max"`
	Total int `json:"total"`
	// Prev and Next are the neighbouring months, YYYY-MM.
	Prev string `json:"prev"`
	Next string `json:"next"`
}

// ViolationCalendarDay is one date's count, linked to that day's list.
type ViolationCalendarDay struct {
	Date  string `json:"date" jsonschema:"format=date"`
	Count int    `json:"count"`
	Link  string `json:"link"`
}
