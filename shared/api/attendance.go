package api

import "time"

// Attendance statuses of one lesson hour. "belum" (not yet filled) is not a
// status: it is the absence of a stored row, shown as a grey dash.
const (
	AttendancePresent = "H" // hadir
	AttendanceSick    = "S" // sakit
	AttendanceExcused = "I" // izin
	AttendanceAlpha   = "A" // alpha: unexcused absence
	AttendanceLate    = "T" // terlambat
	// AttendanceNone is what a form or push may send for "not filled":
	// skipped, never stored, nothing deleted.
	AttendanceNone = "belum"
)

// AttendanceStatuses lists the stored statuses in the order screens show
// them.
var AttendanceStatuses = []string{AttendancePresent, AttendanceSick, AttendanceExcused, AttendanceAlpha, AttendanceLate}

// Kinds of automatic violation derived from attendance.
const (
	AutoAlpha = "alpha"
	AutoLate  = "late"
)

// Who set an attendance cell last (AttendanceCell.SetBy). A person's cell
// (user, excuse) is never overwritten by a machine (journal, kiosk).
const (
	SetByUser    = "user"    // someone on the class form
	SetByJournal = "journal" // the journal (E-Jurnal)
	SetByKiosk   = "kiosk"   // a Face-ID kiosk's scan (or its confirmation)
	SetByExcuse  = "excuse"  // an approved parent's excuse
)

// AttendanceCell is one stored lesson hour of one student on the form.
type AttendanceCell struct {
	LessonHour int    `json:"lesson_hour" jsonschema:"minimum=1,maximum=16"`
	Status     string `json:"status" jsonschema:"enum=H,enum=S,enum=I,enum=A,enum=T"`
	// FromJournal: the journal (E-Jurnal) pushed it last (SetBy journal).
	FromJournal bool `json:"from_journal" jsonschema_description:"the journal pushed it last (set_by journal)"`
	// SetBy is who set it last: user, journal, kiosk or excuse.
	SetBy string `json:"set_by" jsonschema:"enum=user,enum=journal,enum=kiosk,enum=excuse" jsonschema_description:"who set it last; user and excuse are a person's: no push or kiosk overwrites them"`
	// UpdatedBy is the name of who saved it last on the form ("" for the
	// journal, or when that account was deleted).
	UpdatedBy string    `json:"updated_by" jsonschema_description:"the name of who saved it last on the form; empty for the journal or a deleted account"`
	UpdatedAt time.Time `json:"updated_at" jsonschema:"format=date-time"`
	Notes     string    `json:"notes,omitempty"`
}

// AttendanceFormStudent is one row of the class form: a student and the
// hours stored for them that day (hours not listed are belum).
type AttendanceFormStudent struct {
	ID       int64            `json:"id"`
	NISN     string           `json:"nisn"`
	NIS      string           `json:"nis"`
	FullName string           `json:"full_name"`
	Gender   string           `json:"gender" jsonschema:"enum=L,enum=P,enum="`
	Cells    []AttendanceCell `json:"cells" jsonschema_description:"stored hours in order; hours not listed are belum"`
}

// AttendanceForm is GET /classes/{id}/attendance/{date}: the class's active
// students (by name) and what is stored for the date.
type AttendanceForm struct {
	ClassID   int64  `json:"class_id"`
	ClassName string `json:"class_name"`
	// Date is the Asia/Jakarta school day, YYYY-MM-DD.
	Date string `json:"date" jsonschema:"format=date"`
	// LessonHours is N of the school profile: hours 1..N.
	LessonHours int                     `json:"lesson_hours" jsonschema_description:"N of the school profile: hours 1..N"`
	Students    []AttendanceFormStudent `json:"students"`
	// CanEdit: the caller may save this form (attendance.record and, for a
	// homeroom teacher, their own class).
	CanEdit bool `json:"can_edit"`
	// JournalConflicts are the cells a journal push kept for a person
	// because it sent another status (never null).
	JournalConflicts []JournalConflict `json:"journal_conflicts" jsonschema_description:"cells a journal push kept for a person; [] when none"`
}

// JournalConflict is a cell a person set that a journal push sent another
// status for: the person's entry stands until a person decides.
type JournalConflict struct {
	StudentID  int64 `json:"student_id"`
	LessonHour int   `json:"lesson_hour"`
	// JournalStatus is what the journal sent; Status what is stored (the
	// person's).
	JournalStatus string `json:"journal_status" jsonschema:"enum=H,enum=S,enum=I,enum=A,enum=T" jsonschema_description:"what the journal sent"`
	Status        string `json:"status" jsonschema:"enum=H,enum=S,enum=I,enum=A,enum=T" jsonschema_description:"what is stored (the person's)"`
	// SetByName and SetAt: who set the stored status and when.
	SetByName string    `json:"set_by_name"`
	SetAt     time.Time `json:"set_at" jsonschema:"format=date-time"`
	// PushedAt: when the journal last sent its status.
	PushedAt time.Time `json:"pushed_at" jsonschema:"format=date-time" jsonschema_description:"when the journal last sent its status"`
}

// Actions on journal conflicts.
const (
	ConflictKeep       = "keep"        // the person's entry stands; the notice goes
	ConflictUseJournal = "use_journal" // the journal's status is stored as the caller's entry
)

// AttendanceCellKey names one cell of a class form's day.
type AttendanceCellKey struct {
	StudentID  int64 `json:"student_id" jsonschema:"required"`
	LessonHour int   `json:"lesson_hour" jsonschema:"required"`
}

// JournalConflictsRequest is POST /classes/{id}/attendance/{date}/journal-conflicts.
type JournalConflictsRequest struct {
	Action string              `json:"action" jsonschema:"required,enum=keep,enum=use_journal"`
	Cells  []AttendanceCellKey `json:"cells" jsonschema:"required,minItems=1,maxItems=5000"`
}

// AttendanceEntry is one cell sent by the form.
type AttendanceEntry struct {
	StudentID  int64  `json:"student_id" jsonschema:"required"`
	LessonHour int    `json:"lesson_hour" jsonschema:"required,minimum=1"`
	Status     string `json:"status" jsonschema:"required" jsonschema_description:"H S I A T, a status word, or belum (skipped)"`
}

// SaveAttendanceRequest is PUT /classes/{id}/attendance/{date}. Entries
// with status "belum" are skipped; every other one is upserted in one
// transaction.
type SaveAttendanceRequest struct {
	Entries []AttendanceEntry `json:"entries" jsonschema:"maxItems=5000"`
	// Confirm: the caller has seen the preview; without it a save that
	// would change cells set by the journal, a kiosk or another person is
	// refused (409 attendance.confirm_required).
	Confirm bool `json:"confirm" jsonschema:"default=false" jsonschema_description:"the caller saw the preview: cells set by the journal, a kiosk or another person may change"`
}

// AttendanceResult counts what a save or a push did.
type AttendanceResult struct {
	Created           int `json:"created"`
	Updated           int `json:"updated"`
	Unchanged         int `json:"unchanged"`
	Skipped           int `json:"skipped"`
	Unmatched         int `json:"unmatched"`
	ViolationsCreated int `json:"violations_created"`
	ViolationsUpdated int `json:"violations_updated"`
	ViolationsRemoved int `json:"violations_removed"`
	// ViolationsKept counts automatic violations kept (already handled)
	// although their day lost its last A or T hour.
	ViolationsKept int `json:"violations_kept" jsonschema_description:"automatic violations kept (already handled) although their day lost its last A or T hour"`
	// LettersIssued counts warning letters the changed points issued.
	LettersIssued int `json:"letters_issued"`
	// LettersWithdrawn counts the open letters the changed points no
	// longer reach at any of their levels.
	LettersWithdrawn int `json:"letters_withdrawn" jsonschema_description:"open letters none of whose levels the new totals reach"`
	// LettersRaised counts the open letters raised to a level the changed
	// points reach; LettersLowered those lowered to the levels still
	// reached.
	LettersRaised  int `json:"letters_raised" jsonschema_description:"open letters raised to a level the new totals reach"`
	LettersLowered int `json:"letters_lowered" jsonschema_description:"open letters lowered to the levels still reached"`
	// KeptByPerson counts the entries of a machine (journal, kiosk) not
	// stored because a person set the cell with another status.
	KeptByPerson int `json:"kept_by_person" jsonschema_description:"entries of the journal (or a kiosk) not stored because a person set the cell with another status"`
}

// Letter changes (LetterChange.Change).
const (
	LetterChangeIssued    = "issued"
	LetterChangeWithdrawn = "withdrawn"
	// LetterChangeRaised: an open letter now covers a higher level too;
	// LetterChangeLowered: it covers fewer levels (the total fell).
	LetterChangeRaised  = "raised"
	LetterChangeLowered = "lowered"
)

// LetterChange is a warning letter an attendance save issued, raised,
// lowered or withdrew; Name is the letter's after the change ("SP 1–2").
type LetterChange struct {
	// ID is 0 in a preview of an issue (nothing is stored).
	ID          int64  `json:"id" jsonschema_description:"0 in a preview of an issue"`
	StudentID   int64  `json:"student_id"`
	StudentName string `json:"student_name"`
	Level       int    `json:"level"`
	Name        string `json:"name" jsonschema:"example=SP 1,example=SP 1–2" jsonschema_description:"the letter's name after the change"` // "SP 1"
	Change      string `json:"change" jsonschema:"enum=issued,enum=raised,enum=lowered,enum=withdrawn" jsonschema_description:"raised: an open letter now covers a higher level too; lowered: it covers fewer levels"`
}

// SaveAttendanceResponse answers a form save: the counts, the letters it
// issued or withdrew (never null) and the form as stored now.
type SaveAttendanceResponse struct {
	Results AttendanceResult `json:"results"`
	Letters []LetterChange   `json:"letters" jsonschema_description:"every letter issued, raised, lowered or withdrawn; [] when none"`
	Form    AttendanceForm   `json:"form"`
}

// AttendancePreview is POST /classes/{id}/attendance/{date}/preview: what
// the same save would do, computed by running it and rolling it back.
type AttendancePreview struct {
	// CellsChanged: stored cells whose status would change; of those, the
	// ones the journal, a kiosk or another person (another user, an
	// excuse) set last.
	CellsChanged      int `json:"cells_changed" jsonschema_description:"stored cells whose status would change"`
	CellsFromJournal  int `json:"cells_from_journal"`
	CellsFromKiosk    int `json:"cells_from_kiosk"`
	CellsFromOthers   int `json:"cells_from_others" jsonschema_description:"set last by another user or an excuse"`
	ViolationsCreated int `json:"violations_created"`
	ViolationsRemoved int `json:"violations_removed"`
	ViolationsUpdated int `json:"violations_updated"`
	// Letters the save would issue (id 0) or withdraw (never null).
	Letters []LetterChange `json:"letters"`
	// NeedsConfirmation: the save must be sent with confirm true.
	NeedsConfirmation bool `json:"needs_confirmation" jsonschema_description:"cells_from_journal + cells_from_kiosk + cells_from_others > 0"`
}

// JournalSyncResponse is the answer of POST /attendance/sync, in the shape
// the deployed E-Jurnal reads.
type JournalSyncResponse struct {
	Success bool             `json:"success"`
	Message string           `json:"message"`
	Results AttendanceResult `json:"results"`
}

// JournalFailure is every refused answer of the journal's routes (sync and
// ping): the E-Jurnal reads success and message (and, on 422, Laravel's
// errors), our own clients read error.
type JournalFailure struct {
	Success bool                `json:"success" jsonschema_extras:"const=false"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty" jsonschema_description:"422 only, Laravel's shape: {\"attendances.3.status\": [\"…\"]}"`
	Error   ErrorDetail         `json:"error"`
}

// JournalPingResponse is the answer of GET /attendance/ping.
type JournalPingResponse struct {
	Success    bool      `json:"success"`
	School     string    `json:"school"`
	ServerTime time.Time `json:"server_time"`
}

// JournalToken is GET/POST /settings/journal-token.
type JournalToken struct {
	Token     string     `json:"token"`
	CreatedAt *time.Time `json:"created_at" jsonschema:"format=date-time"`
	CreatedBy string     `json:"created_by"`
}

// JournalPush is one push in Settings -> Integrations.
type JournalPush struct {
	ID         int64            `json:"id"`
	ReceivedAt time.Time        `json:"received_at" jsonschema:"format=date-time"`
	Address    string           `json:"address"`
	Outcome    string           `json:"outcome" jsonschema:"enum=applied,enum=rejected,enum=unauthorized,enum=too_large,enum=failed"`
	Entries    int              `json:"entries"`
	Results    AttendanceResult `json:"results"`
	// Error is the rendered message of what went wrong; Errors the first
	// bad entries ("entries[3].status: ...").
	Error      string   `json:"error"`
	ErrorCode  string   `json:"error_code"`
	Errors     []string `json:"errors" jsonschema_description:"the first bad entries"`
	DurationMS int      `json:"duration_ms"`
	// Kept is a sample (the first 20) of the entries kept for a person
	// (results.kept_by_person counts them all); never null.
	Kept []JournalKept `json:"kept" jsonschema_description:"the first 20 entries kept for a person (results.kept_by_person counts them all)"`
}

// JournalKept is an entry of a push not stored because a person set the
// cell with another status.
type JournalKept struct {
	StudentID     int64  `json:"student_id"`
	StudentName   string `json:"student_name"`
	Date          string `json:"date" jsonschema:"format=date"`
	LessonHour    int    `json:"lesson_hour"`
	JournalStatus string `json:"journal_status" jsonschema_description:"what the journal sent"`
	Status        string `json:"status" jsonschema_description:"what stands (the person's)"`
	SetByName     string `json:"set_by_name"`
	// SetAt: when the person set the stored status.
	SetAt time.Time `json:"set_at" jsonschema:"format=date-time"`
	// Text: "kept: set by <name> at <time>", in the reader's language.
	Text string `json:"text" jsonschema_description:"kept: set by <name> at <time> …, in the reader's language"`
}

// JournalAuthFailure counts the pushes (and pings) one address sent with a
// wrong or missing token in one minute: kept apart from the push log, so a
// flood of them never evicts a real push.
type JournalAuthFailure struct {
	Address   string    `json:"address" db:"address"`
	Minute    time.Time `json:"minute" db:"minute" jsonschema:"format=date-time"`
	Attempts  int       `json:"attempts" db:"attempts"`
	ErrorCode string    `json:"error_code" db:"error_code" jsonschema_description:"journal.token_missing, journal.token_invalid or journal.token_not_configured"`
	LastAt    time.Time `json:"last_at" db:"last_at" jsonschema:"format=date-time"`
}

// ParkedAttendance is an entry the journal sent for a student Tatib does
// not know yet.
type ParkedAttendance struct {
	SourceStudentID int64     `json:"source_student_id"`
	Date            string    `json:"date" jsonschema:"format=date"`
	LessonHour      int       `json:"lesson_hour"`
	Status          string    `json:"status"`
	Notes           string    `json:"notes"`
	Reason          string    `json:"reason" jsonschema_description:"unknown_student: no student has the id yet; inactive_student: the student is inactive"`
	ReasonText      string    `json:"reason_text" jsonschema_description:"reason, in the reader's language"`
	ReceivedAt      time.Time `json:"received_at"`
}

// AttendanceCounts counts hours (or students) per status.
type AttendanceCounts struct {
	H int `json:"h"`
	S int `json:"s"`
	I int `json:"i"`
	A int `json:"a"`
	T int `json:"t"`
}

// AttendanceRecapStudent is one student's line of a recap.
type AttendanceRecapStudent struct {
	ID       int64  `json:"id"`
	NISN     string `json:"nisn"`
	NIS      string `json:"nis"`
	FullName string `json:"full_name"`
	// Hours (daily): status per lesson hour 1..N, "" for belum.
	Hours []string `json:"hours,omitempty" jsonschema_description:"daily: status per lesson hour 1..N, \"\" for belum"`
	// Days (weekly): hour counts per day of Dates, in order.
	Days []AttendanceCounts `json:"days,omitempty" jsonschema_description:"weekly: hours per day of dates"`
	// DayStatuses (daily and weekly): the status of each day of Dates by
	// the school's day rule, "" when nothing is stored.
	DayStatuses []string `json:"day_statuses,omitempty" jsonschema:"enum=H,enum=S,enum=I,enum=A,enum=T,enum=" jsonschema_description:"daily and weekly: the day status of each day of dates by the day rule, \"\" when nothing is stored"`
	// Counts: hour counts over the period.
	Counts AttendanceCounts `json:"counts"`
	// DayCounts: days per day status over the period (each day with a
	// stored hour counts once, under its status by the school's day rule).
	DayCounts AttendanceCounts `json:"day_counts" jsonschema_description:"days per day status over the period"`
	// DaysRecorded: days with at least one stored hour; Percentage:
	// present hours (H + T) of stored hours, 0..100, one decimal (null
	// when nothing is stored).
	DaysRecorded int      `json:"days_recorded"`
	Percentage   *float64 `json:"percentage"`
}

// AttendanceRecapDay is one date's statistics: students per day status
// (each student with a stored hour counts once, under their day's status
// by the school's day rule), so Students + Unrecorded is the class (or the
// school).
type AttendanceRecapDay struct {
	Date     string           `json:"date" jsonschema:"format=date"`
	Students AttendanceCounts `json:"students" jsonschema_description:"students per day status: each student with a stored hour once, under their day's status"`
	// Recorded: students with at least one stored hour that day;
	// Unrecorded: the active students with none.
	Recorded   int `json:"recorded"`
	Unrecorded int `json:"unrecorded" jsonschema_description:"active students with no stored hour that day"`
}

// AttendanceRecap is GET /classes/{id}/attendance-recap.
type AttendanceRecap struct {
	Period      string `json:"period" jsonschema:"enum=daily,enum=weekly,enum=monthly,enum=semester"` // daily, weekly, monthly, semester
	ClassID     int64  `json:"class_id"`
	ClassName   string `json:"class_name"`
	From        string `json:"from" jsonschema:"format=date"`
	To          string `json:"to" jsonschema:"format=date"`
	LessonHours int    `json:"lesson_hours"`
	// Year and Semester (semester period only): the academic year by its
	// first calendar year (2026 = 2026/2027) and 1 or 2.
	Year     int `json:"year,omitempty" jsonschema_description:"semester period: the academic year's first calendar year (2026 = 2026/2027)"`
	Semester int `json:"semester,omitempty" jsonschema:"enum=1,enum=2" jsonschema_description:"semester period only"`
	// DayRule: the school's day rule the day figures follow.
	DayRule string `json:"day_rule" jsonschema:"enum=majority,enum=any_alpha"`
	// Dates are the days of the period, in order (weekly: Monday..Sunday).
	Dates    []string                 `json:"dates" jsonschema:"format=date"`
	Students []AttendanceRecapStudent `json:"students"`
	// Summary per date of the period: unique students per status.
	Summary []AttendanceRecapDay `json:"summary"`
	// Totals: unique students with at least one hour of each status in the
	// whole period, and the class's hour counts.
	StudentsWith AttendanceCounts `json:"students_with"`
	Hours        AttendanceCounts `json:"hours"`
	// Days: student-days per day status over the period; SchoolDays: the
	// dates on which any student of the class has a stored hour;
	// DaysUnrecorded: the student-days of those dates with nothing stored.
	// Days + DaysUnrecorded = students × SchoolDays.
	Days           AttendanceCounts `json:"days" jsonschema_description:"student-days per day status over the period"`
	SchoolDays     int              `json:"school_days" jsonschema_description:"dates of the period on which any student of the school has a stored hour"`
	DaysUnrecorded int              `json:"days_unrecorded" jsonschema_description:"student-days of the school days with nothing stored; days + days_unrecorded = students × school_days"`
}

// AttendanceCalendarDay is one date of a month calendar. For a class,
// Students counts the students per day status (by the school's day rule)
// and Recorded the students with any stored hour; for a student, Hours
// counts their hours and State is the day's status by the day rule ("" when
// nothing is stored).
type AttendanceCalendarDay struct {
	Date     string           `json:"date" jsonschema:"format=date"`
	State    string           `json:"state"`
	Hours    AttendanceCounts `json:"hours"`
	Students AttendanceCounts `json:"students"`
	Recorded int              `json:"recorded"`
}

// AttendanceCalendar is GET /classes/{id}/attendance-calendar and
// GET /students/{id}/attendance-calendar: one month.
type AttendanceCalendar struct {
	Month     string `json:"month"` // YYYY-MM
	ClassID   int64  `json:"class_id,omitempty"`
	ClassName string `json:"class_name,omitempty"`
	StudentID int64  `json:"student_id,omitempty"`
	// ClassSize: the class's active students (class calendar).
	ClassSize int `json:"class_size,omitempty"`
	// Days: only dates with stored attendance, in order.
	Days []AttendanceCalendarDay `json:"days"`
	// Prev and Next are the neighbouring months, YYYY-MM.
	Prev string `json:"prev"`
	Next string `json:"next"`
}

// AttendanceRecapClass is one class's line of the school recap.
type AttendanceRecapClass struct {
	ClassID   int64  `json:"class_id"`
	ClassName string `json:"class_name"`
	// Size: the class's active students.
	Size         int              `json:"size"`
	Hours        AttendanceCounts `json:"hours"`
	StudentsWith AttendanceCounts `json:"students_with"`
	Percentage   *float64         `json:"percentage"`
	// Days, SchoolDays, DaysUnrecorded: as in AttendanceRecap, for the
	// class.
	Days           AttendanceCounts `json:"days" jsonschema_description:"the class's student-days per day status"`
	SchoolDays     int              `json:"school_days"`
	DaysUnrecorded int              `json:"days_unrecorded"`
}

// AttendanceSchoolRecap is GET /attendance-recap: every class (a homeroom
// teacher: theirs only) over a daily, weekly, monthly or semester period.
type AttendanceSchoolRecap struct {
	Period       string                 `json:"period" jsonschema:"enum=daily,enum=weekly,enum=monthly,enum=semester"`
	From         string                 `json:"from" jsonschema:"format=date"`
	To           string                 `json:"to" jsonschema:"format=date"`
	Year         int                    `json:"year,omitempty" jsonschema_description:"semester period: the academic year's first calendar year (2026 = 2026/2027)"`
	Semester     int                    `json:"semester,omitempty" jsonschema:"enum=1,enum=2" jsonschema_description:"semester period only"`
	DayRule      string                 `json:"day_rule" jsonschema:"enum=majority,enum=any_alpha"`
	Classes      []AttendanceRecapClass `json:"classes"`
	Summary      []AttendanceRecapDay   `json:"summary"`
	StudentsWith AttendanceCounts       `json:"students_with"`
	Hours        AttendanceCounts       `json:"hours"`
	// Size: the active students of the classes listed; Days and
	// DaysUnrecorded: the classes' student-days summed.
	Size           int              `json:"size" jsonschema_description:"active students of the classes listed"`
	Days           AttendanceCounts `json:"days" jsonschema_description:"student-days per day status, every class"`
	DaysUnrecorded int              `json:"days_unrecorded"`
}
