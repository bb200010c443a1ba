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
