package api

import "time"

// AcademicYear is GET /academic-year: the academic year running today, so
// every screen that shows a total can say which year it counts.
type AcademicYear struct {
	// Start is its first day, End the first day of the next (YYYY-MM-DD).
	Start string `json:"start" jsonschema:"format=date"`
	End   string `json:"end" jsonschema:"format=date" jsonschema_description:"the next year's first day"`
	// Label names it, "2026/2027".
	Label string `json:"label" jsonschema_description:"e.g. 2026/2027"`
	// StartMonthDay is the school's setting (MM-DD): a screen finds the
	// year of any day from it.
	StartMonthDay string `json:"start_month_day" jsonschema_description:"MM-DD, e.g. 07-01"`
}

// LetterSettings are the school's letter settings (Settings → School →
// Letter numbers), GET/PUT /settings/letters.
type LetterSettings struct {
	// NumberPattern makes a letter's number when it is first printed; it
	// must contain {seq}.
	NumberPattern string     `json:"number_pattern" jsonschema:"maxLength=100" jsonschema_description:"must contain {seq}; may use {seq} {level} {roman_month} {month} {year}; empty in a PUT: the default"`
	UpdatedAt     *time.Time `json:"updated_at,omitempty" jsonschema:"format=date-time,readOnly=true" jsonschema_description:"left out until the settings are first saved"`
	// Answer only: what a pattern may use, and the number the pattern
	// gives an SP 1 of today as the first of its year.
	Placeholders []string `json:"placeholders,omitempty" jsonschema_extras:"readOnly=true" jsonschema_description:"answer only"`
	Example      string   `json:"example,omitempty" jsonschema:"readOnly=true" jsonschema_description:"answer only: the number an SP 1 of today would get as the year's first"`
}

// PublicLetter is what anyone holding a letter's code may learn: that the
// school issued it, its number, level, date and status, and the student's
// initials. Nothing else about the student.
type PublicLetter struct {
	School        string `json:"school"`
	Number        string `json:"number"`
	Level         int    `json:"level"`
	LevelName     string `json:"level_name"`
	LevelsCovered []int  `json:"levels_covered"`
	// Date is the letter's date (its issue day, Asia/Jakarta), YYYY-MM-DD.
	Date string `json:"date" jsonschema:"format=date" jsonschema_description:"the letter's date (its issue day, Asia/Jakarta)"`
	// Status is draft, printed, signed, delivered or withdrawn;
	// StatusLabel says it in the request's language.
	Status          string `json:"status" jsonschema:"enum=draft,enum=printed,enum=signed,enum=delivered,enum=withdrawn"`
	StatusLabel     string `json:"status_label" jsonschema_description:"in the request's language"`
	StudentInitials string `json:"student_initials" jsonschema_description:"e.g. A. F.; nothing else about the student"`
	AcademicYear    string `json:"academic_year" jsonschema_description:"e.g. 2026/2027"`
}
