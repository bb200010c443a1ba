package api

// StudentYears is GET /students/{id}/years: a student's record per
// academic year, newest first. Points and the SP ladder start again each
// year; the years before stay readable here.
type StudentYears struct {
	// CurrentStart is the first day of the academic year running today.
	CurrentStart string `json:"current_start" jsonschema:"format=date" jsonschema_description:"the first day of the academic year running today"`
	// Data holds every academic year the student has violations or
	// letters in, newest first.
	Data []StudentYear `json:"data"`
}

// StudentYear is one academic year of a student.
type StudentYear struct {
	// Start is the year's first day (YYYY-MM-DD); Label names it
	// "2025/2026".
	Start      string              `json:"start" jsonschema:"format=date" jsonschema_description:"the year's first day"`
	Label      string              `json:"label" jsonschema_description:"e.g. 2025/2026"`
	Current    bool                `json:"current" jsonschema_description:"the year running today"`
	Total      int                 `json:"total" jsonschema_description:"points of the year's violations"`
	Violations int                 `json:"violations" jsonschema_description:"how many violations"`
	Letters    []StudentYearLetter `json:"letters" jsonschema_description:"the year's warning letters, lowest level first"`
}

// StudentYearLetter is a warning letter of that year.
type StudentYearLetter struct {
	ID     int64  `json:"id"`
	Level  int    `json:"level"`
	Name   string `json:"name" jsonschema_description:"the level's name when issued"`
	Status string `json:"status" jsonschema:"enum=draft,enum=printed,enum=signed,enum=delivered,enum=withdrawn"`
}
