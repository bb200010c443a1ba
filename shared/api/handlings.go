package api

// Kinds of automatic attendance violations a bulk resolve covers.
const (
	AttendanceKindLate  = "late"
	AttendanceKindAlpha = "alpha"
	AttendanceKindAll   = "all"
)

// HandlingViolation is one violation a shared handling record covers, as
// the violation page lists them ("also covers N other violations").
type HandlingViolation struct {
	ID             int64  `json:"id" db:"id"`
	StudentID      int64  `json:"student_id" db:"student_id"`
	StudentName    string `json:"student_name" db:"student_name"`
	ClassName      string `json:"class_name" db:"class_name" jsonschema_description:"the class as it was that day"`
	TypeName       string `json:"type_name" db:"type_name"`
	OccurredOn     string `json:"occurred_on" db:"occurred_on" jsonschema:"format=date"`
	HandlingStatus string `json:"handling_status" db:"handling_status" jsonschema:"enum=unhandled,enum=in_progress,enum=resolved"`
}

// CreateSharedHandlingRequest records one handling record for several
// violations, of one student or of several (POST /handlings). The fields
// are those of CreateHandlingRequest but the follow-up date, which belongs
// to one case.
type CreateSharedHandlingRequest struct {
	ViolationIDs   []int64               `json:"violation_ids" jsonschema:"required,minItems=1" jsonschema_description:"at most 500 distinct; duplicates are ignored"`
	HandlingTypeID int64                 `json:"handling_type_id" jsonschema:"required"`
	HandledOn      string                `json:"handled_on" jsonschema:"required,format=date"`
	Notes          string                `json:"notes" jsonschema:"maxLength=5000"`
	Participants   []HandlingParticipant `json:"participants" jsonschema:"maxItems=20"`
}

// ResolveAttendanceRequest resolves a class's open automatic attendance
// violations of a date range with one shared handling record
// (POST /classes/{id}/attendance-violations/resolve).
type ResolveAttendanceRequest struct {
	// From and To bound the violations' day, inclusive, YYYY-MM-DD.
	From string `json:"from" jsonschema:"required,format=date"`
	To   string `json:"to" jsonschema:"required,format=date"`
	// Kind is late, alpha or all.
	Kind string `json:"kind" jsonschema:"required,enum=late,enum=alpha,enum=all"`
	// HandlingTypeID 0 takes the default (the active type named
	// "Lainnya", else the first active one that does not summon parents).
	HandlingTypeID int64 `json:"handling_type_id" jsonschema_description:"0 or missing: the active type named \"Lainnya\", else the first active one that does not summon parents"`
	// HandledOn "" is today (Jakarta).
	HandledOn string `json:"handled_on" jsonschema:"format=date" jsonschema_description:"missing: today (Jakarta); not in the future"`
	Notes     string `json:"notes" jsonschema:"maxLength=5000"`
}

// ResolveAttendanceResponse says what a bulk resolve did: Handling is the
// shared record (null when nothing was open).
type ResolveAttendanceResponse struct {
	Resolved     int       `json:"resolved"`
	Students     int       `json:"students"`
	ViolationIDs []int64   `json:"violation_ids"`
	Handling     *Handling `json:"handling" jsonschema_description:"the shared record; null when nothing was open"`
}

// OpenAttendanceViolations is what a bulk resolve of the same class, range
// and kind would cover now (GET /classes/{id}/attendance-violations/open),
// and the handling type it would record by default.
type OpenAttendanceViolations struct {
	Count            int    `json:"count"`
	Students         int    `json:"students"`
	Max              int    `json:"max" jsonschema_description:"the most one resolve covers (500)"`
	HandlingTypeID   int64  `json:"handling_type_id" jsonschema_description:"the default type (0: none active)"`
	HandlingTypeName string `json:"handling_type_name"`
}
