package api

import "time"

// Day rules: how a student's day status follows from its lesson hours
// (docs/attendance.md, "Days"). Only filled hours count.
const (
	// DayRuleMajority: the status of most filled hours, ties broken
	// A > S > I > T > H (the default).
	DayRuleMajority = "majority"
	// DayRuleAnyAlpha: any A hour makes the day A; otherwise as majority.
	DayRuleAnyAlpha = "any_alpha"
)

// DayRules lists the day rules in the order the settings card shows them.
var DayRules = []string{DayRuleMajority, DayRuleAnyAlpha}

// AttendanceDayRuleSetting is GET and PUT /settings/attendance-day-rule.
type AttendanceDayRuleSetting struct {
	Rule      string     `json:"rule" jsonschema:"enum=majority,enum=any_alpha"`
	UpdatedAt *time.Time `json:"updated_at,omitempty" jsonschema:"format=date-time" jsonschema_description:"absent until the rule is first saved"`
}

// AttendanceSemesterStudent is one student's line of the semester
// hand-off: days per status (what e-Rapor's "ketidakhadiran" takes: sakit,
// izin, alpa) and, to check them, the present and late days, the days
// recorded and the hours per status.
type AttendanceSemesterStudent struct {
	// No: 1.. in the class's order (by name, as e-Rapor lists a class).
	No       int    `json:"no" jsonschema_description:"1.. in the class's order"`
	ID       int64  `json:"id"`
	NISN     string `json:"nisn"`
	NIS      string `json:"nis"`
	FullName string `json:"full_name"`
	// Sakit, Izin, Alpa: days (e-Rapor's "Tanpa Keterangan" is alpa).
	Sakit int `json:"sakit" jsonschema_description:"days"`
	Izin  int `json:"izin" jsonschema_description:"days"`
	Alpa  int `json:"alpa" jsonschema_description:"days (e-Rapor: Tanpa Keterangan)"`
	// Hadir and Terlambat: the other days; DaysRecorded: days with a
	// stored hour (the sum of the five); DaysUnrecorded: school days with
	// none (SchoolDays - DaysRecorded), what to check before the report.
	Hadir          int              `json:"hadir" jsonschema_description:"days"`
	Terlambat      int              `json:"terlambat" jsonschema_description:"days"`
	DaysRecorded   int              `json:"days_recorded" jsonschema_description:"days with a stored hour: the sum of the five"`
	DaysUnrecorded int              `json:"days_unrecorded" jsonschema_description:"school days with none"`
	Hours          AttendanceCounts `json:"hours" jsonschema_description:"lesson hours per status"`
}

// AttendanceSemester is GET /classes/{id}/attendance-semester: a class's
// semester in days per student, for the report card.
type AttendanceSemester struct {
	ClassID   int64  `json:"class_id"`
	ClassName string `json:"class_name"`
	// HomeroomTeacher: the class's homeroom teacher's name ("" when none).
	HomeroomTeacher string `json:"homeroom_teacher"`
	// Year: the academic year's first calendar year (2026 = 2026/2027);
	// AcademicYear: "2026/2027"; Semester: 1 or 2.
	Year         int    `json:"year" jsonschema_description:"the academic year's first calendar year"`
	AcademicYear string `json:"academic_year" jsonschema_description:"2026/2027"`
	Semester     int    `json:"semester" jsonschema:"enum=1,enum=2"`
	// From and To: the semester's first and last day (YYYY-MM-DD).
	From    string `json:"from" jsonschema:"format=date"`
	To      string `json:"to" jsonschema:"format=date"`
	DayRule string `json:"day_rule" jsonschema:"enum=majority,enum=any_alpha"`
	// SchoolDays: dates of the semester on which any student of the school
	// has a stored hour.
	SchoolDays int                         `json:"school_days" jsonschema_description:"dates of the semester on which any student of the school has a stored hour"`
	Students   []AttendanceSemesterStudent `json:"students"`
}
