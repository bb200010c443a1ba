package api

import "time"

// Points policy modes (GET/PUT /points-policy).
const (
	PolicyNone    = "none"
	PolicyOffset  = "offset"
	PolicyAmnesty = "amnesty"
)

// PointsPolicy is the school's points policy: none (achievements shown
// beside violations, totals unchanged), offset (verified achievements
// reduce the year's violation total, capped at OffsetCapPercent of it,
// never below zero) or amnesty (after AmnestyCleanSchoolDays school days
// without a new violation the year's total falls by AmnestyPoints, once
// per clean period). The numbers of the modes not in force are kept.
type PointsPolicy struct {
	Mode                   string     `json:"mode" jsonschema:"required,enum=none,enum=offset,enum=amnesty"`
	OffsetCapPercent       int        `json:"offset_cap_percent" jsonschema:"required,minimum=1,maximum=100" jsonschema_description:"offset: at most this share of the year's violation points is offset"`
	AmnestyCleanSchoolDays int        `json:"amnesty_clean_school_days" jsonschema:"required,minimum=1,maximum=365" jsonschema_description:"amnesty: school days (days with attendance recorded) without a new violation"`
	AmnestyPoints          int        `json:"amnesty_points" jsonschema:"required,minimum=1,maximum=1000" jsonschema_description:"amnesty: the reduction of one clean period"`
	UpdatedAt              *time.Time `json:"updated_at" jsonschema:"readOnly=true"`
}

// SimulateThreshold is one draft warning level (the shape PUT
// /sp-thresholds takes; name and colour may be left out).
type SimulateThreshold struct {
	Level     int    `json:"level" jsonschema:"required"`
	Name      string `json:"name"`
	MinPoints int    `json:"min_points" jsonschema:"required,minimum=1"`
	Colour    string `json:"colour,omitempty"`
}

// SimulateTypePoints is a violation type's draft points.
type SimulateTypePoints struct {
	TypeID int64 `json:"type_id" jsonschema:"required"`
	Points int   `json:"points" jsonschema:"required,minimum=0,maximum=1000"`
}

// SimulateRequest is POST /points-policy/simulate: any of draft
// thresholds, draft type points and a draft policy; what is left out is
// today's.
type SimulateRequest struct {
	Thresholds []SimulateThreshold  `json:"thresholds,omitempty" jsonschema:"maxItems=10" jsonschema_description:"the whole draft list of levels, as PUT /sp-thresholds takes it"`
	TypePoints []SimulateTypePoints `json:"type_points,omitempty" jsonschema:"maxItems=2000"`
	Policy     *PointsPolicy        `json:"policy,omitempty"`
}

// SimulateLevel is how many students hold a level today and under the
// draft (level 0: none reached).
type SimulateLevel struct {
	Level int    `json:"level" jsonschema_description:"0: no level reached"`
	Name  string `json:"name"`
	Today int    `json:"today"`
	Draft int    `json:"draft"`
}

// SimulateStudent is a student whose level the draft changes.
type SimulateStudent struct {
	StudentID  int64  `json:"student_id"`
	Name       string `json:"name"`
	ClassID    *int64 `json:"class_id"`
	ClassName  string `json:"class_name"`
	TodayTotal int    `json:"today_total"`
	DraftTotal int    `json:"draft_total"`
	TodayLevel int    `json:"today_level"`
	DraftLevel int    `json:"draft_level"`
	// Change is "crossed" (a higher level under the draft) or "fell_back".
	Change string `json:"change" jsonschema:"enum=crossed,enum=fell_back"`
}

// SimulateClass counts a class's students who cross or fall back.
type SimulateClass struct {
	ClassID   *int64 `json:"class_id"`
	ClassName string `json:"class_name"`
	Crossed   int    `json:"crossed"`
	FellBack  int    `json:"fell_back"`
}

// SimulateResponse is the simulator's answer; nothing was written.
type SimulateResponse struct {
	AcademicYearStart string            `json:"academic_year_start" jsonschema:"format=date"`
	Students          int               `json:"students" jsonschema_description:"active students with violations or reductions this year"`
	Levels            []SimulateLevel   `json:"levels"`
	Changes           []SimulateStudent `json:"changes"`
	Classes           []SimulateClass   `json:"classes"`
	// Note says, in the caller's language, that saving never rewrites the
	// points of violations already recorded.
	Note string `json:"note"`
}
