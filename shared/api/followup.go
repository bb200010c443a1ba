package api

import "time"

// Who follows up the automatic attendance violations (alpha, late): the
// student's homeroom teacher (the default) or the counselors.
const (
	FollowUpHomeroomTeacher = "homeroom_teacher"
	FollowUpCounselor       = "counselor"
)

// AttendanceFollowUp is the school setting GET/PUT
// /settings/attendance-follow-up: who follows up attendance, and the sizes
// of the attendance early warnings.
type AttendanceFollowUp struct {
	// Owner is FollowUpHomeroomTeacher or FollowUpCounselor.
	Owner string `json:"owner" jsonschema:"enum=homeroom_teacher,enum=counselor,default=homeroom_teacher"`
	// AbsentStreakDays: a student absent (any A hour) on this many school
	// days in a row is an early warning (2..20, default 3).
	AbsentStreakDays int `json:"absent_streak_days" jsonschema:"minimum=2,maximum=20,default=3"`
	// LateTimes late days within the latest LateSchoolDays school days
	// are an early warning (LateTimes 2..30, default 5; LateSchoolDays
	// LateTimes..30, default 10).
	LateTimes      int        `json:"late_times" jsonschema:"minimum=2,maximum=30,default=5"`
	LateSchoolDays int        `json:"late_school_days" jsonschema:"minimum=2,maximum=30,default=10" jsonschema_description:"not fewer than late_times"`
	UpdatedAt      *time.Time `json:"updated_at,omitempty" jsonschema_description:"absent while never saved; ignored in a PUT"`
}

// ViolationSourcePreference is the signed-in user's "Sumber" (GET/PUT
// /preferences/violation-source): the one they chose last, or their role's
// default when they never chose.
type ViolationSourcePreference struct {
	// Source is what the screens open with: Saved's choice, else Default.
	Source string `json:"source" jsonschema:"enum=behaviour,enum=attendance,enum=all" jsonschema_description:"what the screens open with"`
	// Default is the role's: attendance for a homeroom teacher; for a
	// counselor behaviour, or all when the counselors follow up attendance;
	// behaviour for everyone else.
	Default string `json:"default" jsonschema:"enum=behaviour,enum=attendance,enum=all" jsonschema_description:"the role's default"`
	// Saved says Source is the user's own choice.
	Saved bool `json:"saved" jsonschema_description:"source is the user's own choice"`
}

// ViolationSourceInput is PUT /preferences/violation-source: a source, or
// null to go back to the role's default.
type ViolationSourceInput struct {
	Source *string `json:"source"`
}
