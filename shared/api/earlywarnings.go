package api

// The kinds of early warning (GET /early-warnings?kind=).
const (
	// EarlyNearLevel: the student's points this academic year are within
	// the school's early_warning_points of their next SP level.
	EarlyNearLevel = "near_level"
	// EarlyAbsentStreak: absent (any A hour) on 3 or more consecutive
	// school days, recently.
	EarlyAbsentStreak = "absent_streak"
	// EarlyRepeatType: the same violation type 3 or more times in the last
	// 30 days.
	EarlyRepeatType = "repeat_type"
	// EarlyFollowUpDue: a handling's follow-up date is today or past and
	// the violation is not resolved.
	EarlyFollowUpDue = "follow_up_due"
)

// EarlyWarningKinds lists the kinds in the order screens show them.
var EarlyWarningKinds = []string{EarlyFollowUpDue, EarlyAbsentStreak, EarlyRepeatType, EarlyNearLevel}

// The next actions an early warning suggests.
const (
	// ActionRecordHandling opens the violation (Path) to record a handling.
	ActionRecordHandling = "record_handling"
	// ActionOpenStudent opens the student's page.
	ActionOpenStudent = "open_student"
)

// EarlyWarningAction is the suggested next step and the app path that
// takes it.
type EarlyWarningAction struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// EarlyWarning is one reason one student needs attention. A student may
// have several rows (one per kind; per type for repeat_type; per violation
// for follow_up_due). The detail fields of other kinds are null/empty.
type EarlyWarning struct {
	Kind        string `json:"kind"`
	StudentID   int64  `json:"student_id"`
	StudentName string `json:"student_name"`
	StudentNIS  string `json:"student_nis"`
	StudentNISN string `json:"student_nisn"`
	// The student's class now.
	ClassID   *int64 `json:"class_id"`
	ClassName string `json:"class_name"`

	// near_level: the academic year's points, the next level and how many
	// points are left before it.
	Points        *int   `json:"points"`
	NextLevel     *int   `json:"next_level"`
	NextLevelName string `json:"next_level_name"`
	PointsToNext  *int   `json:"points_to_next"`

	// absent_streak: the school days (YYYY-MM-DD) of the streak, first and
	// last, their number, and whether it reaches the latest school day.
	StreakFrom *string `json:"streak_from"`
	StreakTo   *string `json:"streak_to"`
	StreakDays *int    `json:"streak_days"`
	Ongoing    bool    `json:"ongoing"`

	// repeat_type and follow_up_due: the violation type.
	TypeID   *int64 `json:"type_id"`
	TypeName string `json:"type_name"`
	// repeat_type: the days (YYYY-MM-DD) of the violations, oldest first.
	Dates []string `json:"dates"`

	// follow_up_due: the violation and its follow-up date (YYYY-MM-DD);
	// OverdueDays is 0 when it is due today.
	ViolationID *int64  `json:"violation_id"`
	OccurredOn  *string `json:"occurred_on"`
	FollowUpOn  *string `json:"follow_up_on"`
	OverdueDays *int    `json:"overdue_days"`

	Action EarlyWarningAction `json:"action"`
}

// EarlyWarningCounts is the number of warnings of each kind in the
// caller's scope. Total is the number of distinct students with at least
// one warning (a student under two kinds counts once).
type EarlyWarningCounts struct {
	NearLevel    int `json:"near_level"`
	AbsentStreak int `json:"absent_streak"`
	RepeatType   int `json:"repeat_type"`
	FollowUpDue  int `json:"follow_up_due"`
	Total        int `json:"total"`
}

// EarlyWarningPage answers GET /early-warnings: a page of warnings of the
// asked kind (all kinds when none) and the counts of every kind.
type EarlyWarningPage struct {
	Data   []EarlyWarning     `json:"data"`
	Meta   PageMeta           `json:"meta"`
	Counts EarlyWarningCounts `json:"counts"`
	// Threshold is the school's early_warning_points (N).
	Threshold int `json:"threshold"`
	// LatestSchoolDay is the newest day with any attendance (YYYY-MM-DD),
	// null when there is none.
	LatestSchoolDay *string `json:"latest_school_day"`
}
