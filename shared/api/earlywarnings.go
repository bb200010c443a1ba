package api

// The kinds of early warning (GET /early-warnings?kind=).
const (
	// EarlyNearLevel: the student's points this academic year are within
	// the school's early_warning_points of their next SP level.
	EarlyNearLevel = "near_level"
	// EarlyAbsentStreak: absent (any A hour) on N or more consecutive
	// school days, recently (N: the school's absent_streak_days, default 3).
	EarlyAbsentStreak = "absent_streak"
	// EarlyLateRepeat: late (any T hour) on N or more of the latest M
	// school days (the school's late_times and late_school_days, default 5
	// in 10).
	EarlyLateRepeat = "late_repeat"
	// EarlyRepeatType: the same behaviour violation type (not an automatic
	// attendance one) 3 or more times in the last 30 days.
	EarlyRepeatType = "repeat_type"
	// EarlyFollowUpDue: a handling's follow-up date is today or past and
	// the violation is not resolved.
	EarlyFollowUpDue = "follow_up_due"
)

// EarlyWarningKinds lists the kinds in the order screens show them.
var EarlyWarningKinds = []string{EarlyFollowUpDue, EarlyAbsentStreak, EarlyLateRepeat, EarlyRepeatType, EarlyNearLevel}

// EarlyWarningKindsOf are the kinds each source (?source=) shows, in
// order. Near a level counts the points of both, so it is under each;
// follow-ups are of the source's violations.
var EarlyWarningKindsOf = map[string][]string{
	SourceBehaviour:  {EarlyFollowUpDue, EarlyRepeatType, EarlyNearLevel},
	SourceAttendance: {EarlyFollowUpDue, EarlyAbsentStreak, EarlyLateRepeat, EarlyNearLevel},
	SourceAll:        EarlyWarningKinds,
}

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
	Kind string `json:"kind" jsonschema:"enum=record_handling,enum=open_student"`
	Path string `json:"path" jsonschema_description:"the app page that takes the action: /violations/{id} or /students/{id}"`
}

// EarlyWarning is one reason one student needs attention. A student has at
// most one row per kind (rule). The detail fields of other kinds are
// null/empty.
type EarlyWarning struct {
	Kind        string `json:"kind" jsonschema:"enum=follow_up_due,enum=absent_streak,enum=late_repeat,enum=repeat_type,enum=near_level"`
	StudentID   int64  `json:"student_id"`
	StudentName string `json:"student_name"`
	StudentNIS  string `json:"student_nis"`
	StudentNISN string `json:"student_nisn"`
	// The student's class now.
	ClassID   *int64 `json:"class_id" jsonschema_description:"the student's class now"`
	ClassName string `json:"class_name"`

	// near_level: the academic year's points, the next level and how many
	// points are left before it.
	Points        *int   `json:"points" jsonschema_description:"near_level: points this academic year"`
	NextLevel     *int   `json:"next_level"`
	NextLevelName string `json:"next_level_name"`
	PointsToNext  *int   `json:"points_to_next"`

	// absent_streak: the school days (YYYY-MM-DD) of the streak, first and
	// last, their number, and whether it reaches the latest school day.
	StreakFrom *string `json:"streak_from" jsonschema:"format=date"`
	StreakTo   *string `json:"streak_to" jsonschema:"format=date"`
	StreakDays *int    `json:"streak_days" jsonschema_description:"absent_streak: school days in the streak (within the latest 30)"`
	Ongoing    bool    `json:"ongoing" jsonschema_description:"absent_streak: the streak reaches the latest school day"`

	// repeat_type and follow_up_due: the violation type (repeat_type: the
	// most repeated of Types).
	TypeID   *int64 `json:"type_id"`
	TypeName string `json:"type_name"`
	// repeat_type: the days (YYYY-MM-DD) of the violations of TypeID,
	// oldest first; late_repeat: the late days, oldest first.
	Dates []string `json:"dates" jsonschema:"format=date" jsonschema_description:"repeat_type: the days of the violations of type_id; late_repeat: the late days; oldest first"`
	// repeat_type: every type the student repeated, most often first.
	Types []EarlyWarningType `json:"types" jsonschema_description:"repeat_type: every type the student repeated, most often first (type_id is the first)"`

	// late_repeat: how many of the latest WindowDays school days
	// (WindowFrom..WindowTo) the student was late on.
	LateDays   *int    `json:"late_days" jsonschema_description:"late_repeat: late days within the window"`
	WindowDays *int    `json:"window_days" jsonschema_description:"late_repeat: the school days of the window (the setting's late_school_days, fewer when fewer were recorded)"`
	WindowFrom *string `json:"window_from" jsonschema:"format=date"`
	WindowTo   *string `json:"window_to" jsonschema:"format=date"`

	// follow_up_due: the most overdue of the student's due follow-ups, its
	// violation and follow-up date (YYYY-MM-DD); OverdueDays is 0 when it
	// is due today; FollowUps how many are due in all.
	ViolationID *int64  `json:"violation_id" jsonschema_description:"follow_up_due: the violation; repeat_type: the newest of them"`
	OccurredOn  *string `json:"occurred_on" jsonschema:"format=date"`
	FollowUpOn  *string `json:"follow_up_on" jsonschema:"format=date"`
	OverdueDays *int    `json:"overdue_days" jsonschema_description:"follow_up_due: 0 when due today"`
	FollowUps   *int    `json:"follow_ups" jsonschema_description:"follow_up_due: how many of the student's follow-ups are due"`

	Action EarlyWarningAction `json:"action"`
}

// EarlyWarningType is one violation type a student repeated.
type EarlyWarningType struct {
	TypeID   int64  `json:"type_id"`
	TypeName string `json:"type_name"`
	Times    int    `json:"times"`
}

// EarlyWarningCounts is the number of students under each kind in the
// caller's scope and source (a kind outside the source is 0). Total is the
// number of distinct students with at least one warning (a student under
// two kinds counts once).
type EarlyWarningCounts struct {
	NearLevel    int `json:"near_level"`
	AbsentStreak int `json:"absent_streak"`
	LateRepeat   int `json:"late_repeat"`
	RepeatType   int `json:"repeat_type"`
	FollowUpDue  int `json:"follow_up_due"`
	Total        int `json:"total" jsonschema_description:"distinct students with at least one warning"`
}

// EarlyWarningRules are the sizes the rules were evaluated with.
type EarlyWarningRules struct {
	AbsentStreakDays int `json:"absent_streak_days"`
	LateTimes        int `json:"late_times"`
	LateSchoolDays   int `json:"late_school_days"`
	RepeatTimes      int `json:"repeat_times"`
	RepeatDays       int `json:"repeat_days"`
}

// EarlyWarningPage answers GET /early-warnings: a page of warnings of the
// asked kind (all kinds when none) and the counts of every kind.
type EarlyWarningPage struct {
	Data   []EarlyWarning     `json:"data"`
	Meta   PageMeta           `json:"meta" openapi:"PageMeta"`
	Counts EarlyWarningCounts `json:"counts"`
	// Threshold is the school's early_warning_points (N).
	Threshold int `json:"threshold" jsonschema_description:"the school's early_warning_points"`
	// Source is the source the page was asked for (all when absent);
	// Kinds the kinds it shows, in order.
	Source string            `json:"source" jsonschema:"enum=behaviour,enum=attendance,enum=all"`
	Kinds  []string          `json:"kinds" jsonschema:"enum=follow_up_due,enum=absent_streak,enum=late_repeat,enum=repeat_type,enum=near_level" jsonschema_description:"the kinds of the source, in the order the page shows them"`
	Rules  EarlyWarningRules `json:"rules"`
	// LatestSchoolDay is the newest day with any attendance (YYYY-MM-DD),
	// null when there is none.
	LatestSchoolDay *string `json:"latest_school_day" jsonschema:"format=date"`
	// CaseStagesOverdue are the cases the caller may see whose current
	// stage is past its due date (at most 20, as the case list shows
	// them); CaseStagesOverdueCount is how many cases are overdue
	// school-wide, for a holder of cases.view_counts (null otherwise).
	CaseStagesOverdue      []CaseSummary `json:"case_stages_overdue" jsonschema_description:"with cases.view: the cases the caller may see (as GET /cases shows them, each read logged) whose current stage is past its due date, at most 20; empty otherwise"`
	CaseStagesOverdueCount *int          `json:"case_stages_overdue_count" jsonschema_description:"with cases.view_counts: how many cases are overdue school-wide; null otherwise"`
}
