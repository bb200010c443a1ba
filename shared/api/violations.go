package api

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Handling statuses of a violation: unhandled → in_progress (first handling
// record) → resolved (resolve); reopen takes a resolved one back to
// in_progress (or unhandled when it has no handling record).
const (
	HandlingUnhandled  = "unhandled"
	HandlingInProgress = "in_progress"
	HandlingResolved   = "resolved"
)

// Violation sources: the violation form, or attendance (alpha/late).
const (
	SourceManual     = "manual"
	SourceAttendance = "attendance"
)

// The "Sumber" choice of the list, the export, the dashboard, the reports
// and the early warnings (query parameter source): behaviour is every
// violation that is not an automatic attendance one (what source=manual
// asked for before, still accepted as its alias), attendance the automatic
// alpha/late ones, all both. Without the parameter the API answers all.
const (
	SourceBehaviour = "behaviour"
	SourceAll       = "all"
)

// Sources are the values of the source parameter, in the order screens
// show them.
var Sources = []string{SourceBehaviour, SourceAttendance, SourceAll}

// Warning letter statuses, in order; withdrawn is off the line (a draft
// whose level is no longer reached after a violation was deleted).
const (
	LetterDraft     = "draft"
	LetterPrinted   = "printed"
	LetterSigned    = "signed"
	LetterDelivered = "delivered"
	LetterWithdrawn = "withdrawn"
)

// Violation is one recorded violation of one type by one student.
type Violation struct {
	ID          int64  `json:"id" db:"id"`
	StudentID   int64  `json:"student_id" db:"student_id"`
	StudentName string `json:"student_name" db:"student_name"`
	StudentNISN string `json:"student_nisn" db:"student_nisn"`
	StudentNIS  string `json:"student_nis" db:"student_nis"`
	// The class as it was on the day of the violation.
	ClassID        *int64    `json:"class_id" db:"class_id" jsonschema_description:"the class as it was on the day"`
	ClassName      string    `json:"class_name" db:"class_name"`
	DepartmentName string    `json:"department_name" db:"department_name"`
	TypeID         int64     `json:"type_id" db:"type_id"`
	TypeName       string    `json:"type_name" db:"type_name"`
	TypeSlug       string    `json:"type_slug" db:"type_slug"`
	CategoryID     int64     `json:"category_id" db:"category_id"`
	CategoryName   string    `json:"category_name" db:"category_name"`
	CategoryColour string    `json:"category_colour" db:"category_colour"`
	OccurredAt     time.Time `json:"occurred_at" db:"occurred_at"`
	// OccurredOn is the Asia/Jakarta calendar day, YYYY-MM-DD.
	OccurredOn  string `json:"occurred_on" db:"occurred_on" jsonschema:"format=date" jsonschema_description:"Asia/Jakarta day"`
	Points      int    `json:"points" db:"points" jsonschema_description:"copied from the type when recorded"`
	Sanction    string `json:"sanction" db:"sanction"`
	Location    string `json:"location" db:"location"`
	Description string `json:"description" db:"description"`
	// RecordedBy is null when the journal sync created it.
	RecordedBy     *int64     `json:"recorded_by" db:"recorded_by" jsonschema_description:"null: the journal sync"`
	RecordedByName string     `json:"recorded_by_name" db:"recorded_by_name"`
	Source         string     `json:"source" db:"source" jsonschema:"enum=manual,enum=attendance"`
	VerifiedBy     *int64     `json:"verified_by" db:"verified_by"`
	VerifiedByName string     `json:"verified_by_name" db:"verified_by_name"`
	VerifiedAt     *time.Time `json:"verified_at" db:"verified_at"`
	HandlingStatus string     `json:"handling_status" db:"handling_status" jsonschema:"enum=unhandled,enum=in_progress,enum=resolved"`
	HandledAt      *time.Time `json:"handled_at" db:"handled_at"`
	HandledBy      *int64     `json:"handled_by" db:"handled_by"`
	HandledByName  string     `json:"handled_by_name" db:"handled_by_name"`
	PhotoCount     int        `json:"photo_count" db:"photo_count"`
	CreatedAt      time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at" db:"updated_at"`
	// Detail only (GET /violations/{id}).
	Photos    []ViolationPhoto `json:"photos,omitempty" db:"-"`
	Handlings []Handling       `json:"handlings,omitempty" db:"-"`
}

// ViolationPhoto is an evidence photo; its bytes are served at URL and
// ThumbnailURL to users allowed to see the violation.
type ViolationPhoto struct {
	ID           int64  `json:"id" db:"id"`
	Width        int    `json:"width" db:"width"`
	Height       int    `json:"height" db:"height"`
	URL          string `json:"url" db:"-"`
	ThumbnailURL string `json:"thumbnail_url" db:"-"`
}

// CreateViolationsRequest records one or more types for one student at
// once: one violation per type, sharing the rest. Sent as JSON, or as
// multipart/form-data with this JSON in the part "data" and up to 5 image
// files in parts named "photos".
type CreateViolationsRequest struct {
	StudentID int64   `json:"student_id" jsonschema:"required"`
	TypeIDs   []int64 `json:"type_ids" jsonschema:"required,minItems=1,maxItems=20" jsonschema_description:"distinct, active, not attendance types"`
	// OccurredAt defaults to now.
	OccurredAt  *time.Time `json:"occurred_at" jsonschema_description:"default now"`
	Location    string     `json:"location" jsonschema:"maxLength=200"`
	Description string     `json:"description" jsonschema:"maxLength=5000"`
	// Sanction applies to every type; empty takes each type's default.
	Sanction string `json:"sanction" jsonschema:"maxLength=1000" jsonschema_description:"for every type; empty: each type's default sanction"`
}

// CorrectViolationRequest is PATCH /violations/{id}: what a correction
// changes; an absent field stays as it is. An automatic violation is
// corrected through attendance only.
type CorrectViolationRequest struct {
	// TypeID changes the type: the points follow the new type's, copied now.
	TypeID      *int64     `json:"type_id,omitempty" jsonschema_description:"the new type: the points follow its points, copied now"`
	OccurredAt  *time.Time `json:"occurred_at,omitempty" jsonschema_description:"at most 5 minutes ahead, not before the start of the previous academic year, in the violation's own academic year"`
	Location    *string    `json:"location,omitempty" jsonschema:"maxLength=200"`
	Description *string    `json:"description,omitempty" jsonschema:"maxLength=5000"`
	Sanction    *string    `json:"sanction,omitempty" jsonschema:"maxLength=1000"`
}

// CorrectViolationResponse answers a correction: the violation as it is
// now, the letters it issued, raised, lowered or withdrew, and the
// student's points after.
type CorrectViolationResponse struct {
	Violation Violation      `json:"violation"`
	Letters   []LetterChange `json:"letters" jsonschema_description:"the letters the correction issued, raised, lowered or withdrew; [] when none"`
	Points    StudentPoints  `json:"points"`
}

// CreateViolationsResponse answers a recording: the violations created,
// any warning letters the new total issued, and the student's points after.
type CreateViolationsResponse struct {
	Violations []Violation     `json:"violations"`
	Letters    []WarningLetter `json:"letters" jsonschema_description:"warning letters this recording issued (drafts), lowest level first"`
	Points     StudentPoints   `json:"points"`
}

// StudentPoints is a student's standing toward warning letters.
type StudentPoints struct {
	StudentID int64 `json:"student_id"`
	// Total counts the current academic year; LifetimeTotal every year.
	Total         int `json:"total"`
	LifetimeTotal int `json:"lifetime_total"`
	// Level is the highest threshold level the total reaches (0: none).
	Level       int    `json:"level" jsonschema_description:"0: no level reached"`
	LevelName   string `json:"level_name"`
	LevelColour string `json:"level_colour"`
	// NextLevel is the next threshold (null past the last one).
	NextLevel         *int   `json:"next_level"`
	NextLevelName     string `json:"next_level_name"`
	NextLevelMinPoint *int   `json:"next_level_min_points"`
	PointsToNext      *int   `json:"points_to_next"`
	// AcademicYearStart is the first day of the current academic year.
	AcademicYearStart string `json:"academic_year_start" jsonschema:"format=date"`
}

// Handling is one follow-up record of a violation.
type Handling struct {
	ID               int64                 `json:"id" db:"id"`
	ViolationID      int64                 `json:"violation_id" db:"violation_id" jsonschema_description:"the violation the record was read through (a shared record made by POST /handlings: the first it covers)"`
	HandlingTypeID   int64                 `json:"handling_type_id" db:"handling_type_id"`
	HandlingTypeName string                `json:"handling_type_name" db:"handling_type_name"`
	HandledOn        string                `json:"handled_on" db:"handled_on" jsonschema:"format=date"`
	Notes            string                `json:"notes" db:"notes"`
	FollowUpOn       *string               `json:"follow_up_on" db:"follow_up_on" jsonschema:"format=date"`
	CreatedBy        *int64                `json:"created_by" db:"created_by"`
	CreatedByName    string                `json:"created_by_name" db:"created_by_name"`
	CreatedAt        time.Time             `json:"created_at" db:"created_at"`
	Participants     []HandlingParticipant `json:"participants" db:"-"`
	// Shared marks a record made by POST /handlings, which may cover
	// several violations (see handlings.go).
	Shared bool `json:"shared" db:"shared" jsonschema_description:"made by POST /handlings: may cover several violations, listed in covers"`
	// ViolationCount is how many violations the record covers (1 for a
	// record made for one violation).
	ViolationCount int `json:"violation_count" db:"violation_count" jsonschema_description:"how many violations the record covers (1 for a record made for one violation)"`
	// Covers lists the violations of a shared record the caller may see,
	// oldest first; empty for a record made for one violation.
	Covers []HandlingViolation `json:"covers" db:"-" jsonschema_description:"the violations a shared record covers that the caller may see, oldest first (a homeroom teacher: their class's only); empty for a record made for one violation"`
}

// HandlingParticipant is a Tatib user or a free name, with their role
// (Wali Kelas, Guru BK, Orang Tua, Siswa, Saksi, …).
type HandlingParticipant struct {
	UserID *int64 `json:"user_id" db:"user_id" jsonschema_description:"a Tatib user; the name is then taken from the user"`
	Name   string `json:"name" db:"name" jsonschema:"maxLength=150" jsonschema_description:"a free name when user_id is null"`
	Role   string `json:"role" db:"role" jsonschema:"required,maxLength=50" jsonschema_description:"Wali Kelas, Guru BK, Orang Tua, Siswa, Saksi, …"`
}

// CreateHandlingRequest adds a handling record to a violation.
type CreateHandlingRequest struct {
	HandlingTypeID int64                 `json:"handling_type_id" jsonschema:"required"`
	HandledOn      string                `json:"handled_on" jsonschema:"required,format=date"`
	Notes          string                `json:"notes" jsonschema:"maxLength=5000"`
	FollowUpOn     *string               `json:"follow_up_on" jsonschema:"format=date"`
	Participants   []HandlingParticipant `json:"participants" jsonschema:"maxItems=20"`
}

// WarningLetter is an SP issued to a student.
type WarningLetter struct {
	ID                int64      `json:"id" db:"id"`
	StudentID         int64      `json:"student_id" db:"student_id"`
	StudentName       string     `json:"student_name" db:"student_name"`
	StudentNISN       string     `json:"student_nisn" db:"student_nisn"`
	ClassID           *int64     `json:"class_id" db:"class_id" jsonschema_description:"the student's class when the letter was issued"`
	ClassName         string     `json:"class_name" db:"class_name"`
	Level             int        `json:"level" db:"level" jsonschema_description:"the highest level the letter covers"`
	Name              string     `json:"name" db:"name" jsonschema_description:"the covered levels' names when issued or last raised or lowered, e.g. SP 1, or SP 1–2 for a letter covering both"`
	MinPoints         int        `json:"min_points" db:"min_points"`
	AcademicYearStart string     `json:"academic_year_start" db:"academic_year_start" jsonschema:"format=date"`
	Points            int        `json:"points" db:"points" jsonschema_description:"the student's total when issued (or last raised or lowered)"`
	ViolationID       *int64     `json:"violation_id" db:"violation_id" jsonschema_description:"the violation whose change brought the total to the letter's level"`
	Status            string     `json:"status" db:"status" jsonschema:"enum=draft,enum=printed,enum=signed,enum=delivered,enum=withdrawn"`
	IssuedAt          time.Time  `json:"issued_at" db:"issued_at"`
	PrintedAt         *time.Time `json:"printed_at" db:"printed_at"`
	SignedAt          *time.Time `json:"signed_at" db:"signed_at"`
	DeliveredAt       *time.Time `json:"delivered_at" db:"delivered_at"`
	WithdrawnAt       *time.Time `json:"withdrawn_at" db:"withdrawn_at"`
	WithdrawnReason   string     `json:"withdrawn_reason" db:"withdrawn_reason" jsonschema_description:"in the request's language"`
	// Colour is the threshold's colour for this level now ("red" when the
	// level has no threshold any more), so a letter looks like its level.
	Colour string `json:"colour" db:"colour" jsonschema_description:"the colour of the level's threshold now (sp_thresholds by level), red when the level has no threshold"`
	// LevelsCovered are the SP levels the letter stands for, lowest first
	// (its Level last): an open letter raised to the next level covers
	// both ("SP 1–2"). Every level a student reaches in a year is covered
	// by exactly one letter that is not withdrawn.
	LevelsCovered Levels `json:"levels_covered" db:"levels_covered" jsonschema_description:"every SP level the letter stands for, lowest first (level last), e.g. [1, 2]. A student has at most one open letter (draft, printed, signed) per academic year: reaching a higher level while it is open raises it (it covers both); a delivered letter never changes and the next level starts a new letter. Every level a student reaches in a year is covered by exactly one letter that is not withdrawn"`
	// TotalFallen: a delivered letter whose level the student's total has
	// since fallen below (a violation deleted or corrected, attendance
	// corrected); the letter stays as it went out. TotalFallenAt is when.
	TotalFallen   bool       `json:"total_fallen" db:"total_fallen" jsonschema_description:"a delivered letter whose level the student's total has since fallen below (a violation deleted or corrected, attendance corrected); it stays as it went out. An open letter is lowered or withdrawn instead"`
	TotalFallenAt *time.Time `json:"total_fallen_at" db:"total_fallen_at"`
	// SentToParentAt is when a counselor marked it sent to the parent (or
	// printed it, when the school sends on print) and SentLevel the level
	// it had then; a letter raised since may be sent again.
	SentToParentAt *time.Time `json:"sent_to_parent_at" db:"sent_to_parent_at" jsonschema_description:"when a counselor marked it sent to the parent (POST …/send), or printed it when the school sends on print"`
	SentLevel      *int       `json:"sent_level" db:"sent_level" jsonschema_description:"the letter's level when it was last sent; a letter raised since may be sent again"`
	// Detail only: the status history.
	Events []WarningLetterEvent `json:"events,omitempty" db:"-" jsonschema_description:"GET /warning-letters/{id} and the status step only"`
}

// WarningLetterEvent is one step of a letter's history: a status step,
// or what a rule did (raised, lowered; draft and withdrawn when a change of
// points drafted or withdrew it) or sent (to the parent).
type WarningLetterEvent struct {
	Status    string    `json:"status" db:"status" jsonschema:"enum=draft,enum=printed,enum=signed,enum=delivered,enum=withdrawn,enum=raised,enum=lowered,enum=sent" jsonschema_description:"a status step, or what a change of points did (draft: drafted, again after a withdrawal when it was never printed, numbered or sent; raised; lowered; withdrawn), or sent: marked sent to the parent"`
	At        time.Time `json:"at" db:"at"`
	ActorName string    `json:"actor_name" db:"actor_name"`
	// Level is the letter's level after the step (null for steps recorded
	// before levels were kept with them).
	Level *int `json:"level" db:"level" jsonschema_description:"the letter's level after the step"`
	// ViolationID names the violation whose change caused a rule's step
	// (null: none, or a status step).
	ViolationID *int64 `json:"violation_id" db:"violation_id" jsonschema_description:"the violation whose change caused a rule's step (it may have been deleted since)"`
}

// Letter history steps beyond the statuses.
const (
	LetterEventRaised  = "raised"
	LetterEventLowered = "lowered"
	LetterEventSent    = "sent"
)

// Levels are SP levels as PostgreSQL stores an integer[] ("{1,2}").
type Levels []int

// Scan reads an integer[] in its text form.
func (l *Levels) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case nil:
		*l = nil
		return nil
	case []byte:
		s = string(v)
	case string:
		s = v
	default:
		return fmt.Errorf("api: levels: cannot scan %T", src)
	}
	s = strings.Trim(s, "{}")
	out := Levels{}
	if s != "" {
		for _, p := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return fmt.Errorf("api: levels %q: %w", s, err)
			}
			out = append(out, n)
		}
	}
	*l = out
	return nil
}

// PointAuditEntry is one change to a student's points.
type PointAuditEntry struct {
	ID          int64     `json:"id" db:"id"`
	At          time.Time `json:"at" db:"at"`
	StudentID   int64     `json:"student_id" db:"student_id"`
	StudentName string    `json:"student_name" db:"student_name"`
	ViolationID *int64    `json:"violation_id" db:"violation_id"`
	// Action is record, delete, correct, auto_record, auto_update,
	// auto_delete, or a points policy's reduction: offset or amnesty
	// (details.policy names it; docs/achievements.md).
	Action       string `json:"action" db:"action" jsonschema:"enum=record,enum=delete,enum=update,enum=correct,enum=auto_record,enum=auto_update,enum=auto_delete,enum=offset,enum=amnesty"`
	PointsBefore int    `json:"points_before" db:"points_before"`
	PointsAfter  int    `json:"points_after" db:"points_after"`
	ActorName    string `json:"actor_name" db:"actor_name"`
	Address      string `json:"address" db:"address"`
	// Details: a correction's violation before and after ({"before":
	// {"type_id", "type", "points", "occurred_at", …}, "after": {…}}); {}
	// for other actions.
	Details json.RawMessage `json:"details" db:"details" jsonschema:"type=object" jsonschema_description:"correct: the violation before and after ({\"before\": {\"type_id\", \"type\", \"points\", \"occurred_at\", \"location\", \"description\", \"sanction\"}, \"after\": {…}}); offset, amnesty: the policy's reduction (details.policy names it); {} for other actions"`
}
