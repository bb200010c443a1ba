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
	Mode                   string     `json:"mode"`
	OffsetCapPercent       int        `json:"offset_cap_percent"`
	AmnestyCleanSchoolDays int        `json:"amnesty_clean_school_days"`
	AmnestyPoints          int        `json:"amnesty_points"`
	UpdatedAt              *time.Time `json:"updated_at"`
}

// SimulateThreshold is one draft warning level (the shape PUT
// /sp-thresholds takes; name and colour may be left out).
type SimulateThreshold struct {
	Level     int    `json:"level"`
	Name      string `json:"name"`
	MinPoints int    `json:"min_points"`
	Colour    string `json:"colour,omitempty"`
}

// SimulateTypePoints is a violation type's draft points.
type SimulateTypePoints struct {
	TypeID int64 `json:"type_id"`
	Points int   `json:"points"`
}

// SimulateRequest is POST /points-policy/simulate: any of draft
// thresholds, draft type points and a draft policy; what is left out is
// today's.
type SimulateRequest struct {
	Thresholds []SimulateThreshold  `json:"thresholds,omitempty"`
	TypePoints []SimulateTypePoints `json:"type_points,omitempty"`
	Policy     *PointsPolicy        `json:"policy,omitempty"`
}

// SimulateLevel is how many students hold a level today and under the
// draft (level 0: none reached).
type SimulateLevel struct {
	Level int    `json:"level"`
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
	Change string `json:"change"`
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
	AcademicYearStart string            `json:"academic_year_start"`
	Students          int               `json:"students"`
	Levels            []SimulateLevel   `json:"levels"`
	Changes           []SimulateStudent `json:"changes"`
	Classes           []SimulateClass   `json:"classes"`
	// Note says, in the caller's language, that saving never rewrites the
	// points of violations already recorded.
	Note string `json:"note"`
}
