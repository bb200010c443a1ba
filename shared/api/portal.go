package api

import "time"

// Guardian relations to a student (docs/portal.md).
const (
	RelationAyah    = "ayah"
	RelationIbu     = "ibu"
	RelationWali    = "wali"
	RelationLainnya = "lainnya"
)

// Guardian link statuses: a pending link is a self-registration waiting for
// the homeroom teacher or an admin.
const (
	GuardianLinkVerified = "verified"
	GuardianLinkPending  = "pending"
)

// PortalCodeRequest asks for a one-time sign-in code by WhatsApp.
type PortalCodeRequest struct {
	Phone string `json:"phone" jsonschema:"required"`
}

// PortalCodeAnswer is the same whether or not the phone is known.
type PortalCodeAnswer struct {
	// Sent is always true: it says the request was taken, not that a
	// guardian with that phone exists.
	Sent      bool      `json:"sent"`
	ExpiresAt time.Time `json:"expires_at" jsonschema:"format=date-time"`
}

// PortalVerifyRequest signs a guardian in with a code (sent by WhatsApp or
// printed by staff as an activation code).
type PortalVerifyRequest struct {
	Phone string `json:"phone" jsonschema:"required"`
	Code  string `json:"code" jsonschema:"required"`
}

// PortalVerifyAnswer carries the portal session token; browsers also get it
// as the tatib_portal cookie.
type PortalVerifyAnswer struct {
	Token    string         `json:"token"`
	Guardian PortalGuardian `json:"guardian"`
}

// PortalGuardian is the signed-in guardian as the portal shows them.
type PortalGuardian struct {
	ID             int64      `json:"id"`
	Name           string     `json:"name"`
	Phone          string     `json:"phone"`
	ConsentAt      *time.Time `json:"consent_at" jsonschema:"format=date-time"`
	ConsentChannel string     `json:"consent_channel" jsonschema:"enum=,enum=whatsapp_code,enum=activation_code"`
	// StudentID is set when a student signed in (the school's setting):
	// they see their own record only; Name is theirs, ID is 0.
	StudentID int64 `json:"student_id,omitempty" jsonschema_description:"set when a student signed in: they see their own record; id is then 0"`
}

// PortalSettings are the school's portal switches.
type PortalSettings struct {
	// Students lets students sign in with NISN and a printed code.
	Students bool `json:"students" jsonschema_description:"students may sign in with NISN and a printed code"`
	// What families see: every part shows unless the school hides it; the
	// recorder's name shows only when the school chooses.
	HideViolations bool `json:"hide_violations"`
	HideLetters    bool `json:"hide_letters"`
	HideAttendance bool `json:"hide_attendance"`
	HideMessages   bool `json:"hide_messages"`
	// HideAchievements hides the child's verified achievements.
	HideAchievements bool `json:"hide_achievements,omitempty" jsonschema_description:"hide the children's verified achievements"`
	ShowRecorder     bool `json:"show_recorder" jsonschema_description:"violations carry the recorder's name"`
	// DigestAt is the Jakarta time ("HH:MM") of the guardians' daily
	// digest; empty means DefaultDigestAt.
	DigestAt string `json:"digest_at,omitempty" jsonschema_description:"HH:MM (Asia/Jakarta) of the guardians' daily digest; default 18:00"`
	// AbsentNotice sends the "belum hadir" notice to guardians who ask for
	// it when their child has no H or T by AbsentNoticeAt ("HH:MM",
	// empty means DefaultAbsentNoticeAt) on a school day.
	AbsentNotice   bool   `json:"absent_notice" jsonschema_description:"send the \"belum hadir\" notice to guardians who ask for it"`
	AbsentNoticeAt string `json:"absent_notice_at,omitempty" jsonschema_description:"HH:MM (Asia/Jakarta): a child with no H or T by then on a school day; default 08:00"`
}

// The defaults of the portal's times (Jakarta).
const (
	DefaultDigestAt       = "18:00"
	DefaultAbsentNoticeAt = "08:00"
)

// The kinds of message a guardian chooses for, and the modes.
const (
	NotifyViolation     = "violation"
	NotifyAttendance    = "attendance"
	NotifyWarningLetter = "warning_letter"
	NotifySummons       = "summons"
	NotifyAchievement   = "achievement"
	NotifyExcuse        = "excuse"
	NotifyAbsentNotice  = "absent_notice"

	NotifyImmediate = "immediate"
	NotifyDigest    = "digest"
	NotifyOff       = "off"
)

// NotificationPref is one kind's choice and the modes it allows.
type NotificationPref struct {
	Kind  string   `json:"kind" jsonschema:"enum=violation,enum=attendance,enum=warning_letter,enum=summons,enum=achievement,enum=excuse,enum=absent_notice"`
	Mode  string   `json:"mode" jsonschema:"enum=immediate,enum=digest,enum=off"`
	Modes []string `json:"modes" jsonschema:"enum=immediate,enum=digest,enum=off"`
}

// NotificationPrefs is GET /portal/preferences: every kind, the school's
// digest time and whether the school sends the "belum hadir" notice.
type NotificationPrefs struct {
	Preferences  []NotificationPref `json:"preferences"`
	DigestAt     string             `json:"digest_at" jsonschema_description:"HH:MM, Asia/Jakarta"`
	AbsentNotice bool               `json:"absent_notice" jsonschema_description:"the school sends the \"belum hadir\" notice"`
}

// NotificationPrefsInput is PUT /portal/preferences: kind → mode, the
// kinds not named keep theirs.
type NotificationPrefsInput struct {
	Preferences map[string]string `json:"preferences" jsonschema:"required,enum=immediate,enum=digest,enum=off"`
}

// PortalStudentSignIn is POST /portal/auth/student.
type PortalStudentSignIn struct {
	NISN string `json:"nisn" jsonschema:"required"`
	Code string `json:"code" jsonschema:"required"`
}

// Guardian is a guardian as staff see them on a student or in the queue.
type Guardian struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Phone     string     `json:"phone"`
	ConsentAt *time.Time `json:"consent_at" jsonschema:"format=date-time"`
	// ConsentChannel: whatsapp_code or activation_code; "" before activation.
	ConsentChannel string     `json:"consent_channel"`
	WithdrawnAt    *time.Time `json:"withdrawn_at" jsonschema:"format=date-time"`
	Sessions       int        `json:"sessions"`
	LastSeenAt     *time.Time `json:"last_seen_at" jsonschema:"format=date-time"`
	// Students are the guardian's links this reader may see.
	Students []GuardianLink `json:"students"`
}

// GuardianLink is one guardian–student link.
type GuardianLink struct {
	StudentID   int64     `json:"student_id"`
	StudentName string    `json:"student_name"`
	ClassName   string    `json:"class_name"`
	Relation    string    `json:"relation" jsonschema:"enum=ayah,enum=ibu,enum=wali,enum=lainnya"`
	Status      string    `json:"status" jsonschema:"enum=verified,enum=pending"`
	Source      string    `json:"source" jsonschema:"enum=sync,enum=staff,enum=self"`
	CreatedAt   time.Time `json:"created_at" jsonschema:"format=date-time"`
}

// GuardianInput adds a guardian to a student (or links a known phone).
type GuardianInput struct {
	StudentID int64  `json:"student_id" jsonschema:"required"`
	Name      string `json:"name" jsonschema:"required"`
	Phone     string `json:"phone" jsonschema:"required"`
	Relation  string `json:"relation" jsonschema:"enum=ayah,enum=ibu,enum=wali,enum=lainnya"`
}

// ActivationCode is a one-time code staff print for a guardian where no
// WhatsApp gateway is configured.
type ActivationCode struct {
	GuardianID int64     `json:"guardian_id"`
	Phone      string    `json:"phone"`
	Code       string    `json:"code"`
	ExpiresAt  time.Time `json:"expires_at" jsonschema:"format=date-time"`
}

// PortalChild is one of the guardian's children in the portal's list.
type PortalChild struct {
	ID        int64  `json:"id" db:"id"`
	Name      string `json:"name" db:"full_name"`
	ClassName string `json:"class_name" db:"class_name"`
	Relation  string `json:"relation" db:"relation"`
	Points    int    `json:"points" db:"points"`
}

// PortalViolation is a violation as a guardian reads it: no recorder, no
// internal notes.
type PortalViolation struct {
	ID         int64  `json:"id" db:"id"`
	Date       string `json:"date" db:"date" jsonschema:"format=date"`
	Type       string `json:"type" db:"type"`
	Points     int    `json:"points" db:"points"`
	Sanction   string `json:"sanction" db:"sanction"`
	Attendance bool   `json:"attendance" db:"attendance"`
	// Recorder is who recorded it, only when the school shows it.
	Recorder string `json:"recorder,omitempty" db:"recorder" jsonschema_description:"only when the school shows it (show_recorder)"`
}

// PortalLetter is a warning letter the school has sent to the parents.
type PortalLetter struct {
	ID             int64      `json:"id" db:"id"`
	Name           string     `json:"name" db:"name"`
	Level          int        `json:"level" db:"level"`
	Number         *string    `json:"number" db:"number"`
	IssuedAt       time.Time  `json:"issued_at" db:"issued_at" jsonschema:"format=date-time"`
	SentAt         *time.Time `json:"sent_at" db:"sent_at" jsonschema:"format=date-time"`
	AcknowledgedAt *time.Time `json:"acknowledged_at" db:"acknowledged_at" jsonschema:"format=date-time"`
}

// PortalAttendanceSummary counts the current academic year's hours.
type PortalAttendanceSummary struct {
	H int `json:"h" db:"h"`
	S int `json:"s" db:"s"`
	I int `json:"i" db:"i"`
	A int `json:"a" db:"a"`
	T int `json:"t" db:"t"`
}

// PortalChildDetail is GET /portal/children/{id}.
type PortalChildDetail struct {
	PortalChild
	Standing   StudentPoints           `json:"standing" openapi:"StudentPoints" jsonschema_description:"as GET /students/{id}/points"`
	Thresholds []PortalThreshold       `json:"thresholds"`
	Violations []PortalViolation       `json:"violations"`
	Letters    []PortalLetter          `json:"letters"`
	Attendance PortalAttendanceSummary `json:"attendance"`
	// Achievements are the child's verified achievements, newest first.
	Achievements []PortalAchievement `json:"achievements" jsonschema_description:"the child's verified achievements, newest first (empty when the school hides them)"`
	// Shown names the parts the school shows (the others are empty).
	Shown PortalParts `json:"shown"`
}

// PortalParts says which parts of a child's page the school shows.
type PortalParts struct {
	Violations   bool `json:"violations"`
	Letters      bool `json:"letters"`
	Attendance   bool `json:"attendance"`
	Achievements bool `json:"achievements"`
}

// PortalAchievement is a verified achievement as the family reads it:
// date, type, level (sekolah … internasional) and points; never the
// recorder or the notes.
type PortalAchievement struct {
	ID     int64  `json:"id" db:"id"`
	Date   string `json:"date" db:"date" jsonschema:"format=date"`
	Type   string `json:"type" db:"type"`
	Level  string `json:"level" db:"level" openapi:"AchievementLevel"`
	Points int    `json:"points" db:"points"`
}

// PortalThreshold is an SP level for the progress bar.
type PortalThreshold struct {
	Level     int    `json:"level" db:"level"`
	Name      string `json:"name" db:"name"`
	MinPoints int    `json:"min_points" db:"min_points"`
}

// PortalAttendanceDay is one school day of a child, with its hours.
type PortalAttendanceDay struct {
	Date   string                  `json:"date" jsonschema:"format=date"`
	Counts PortalAttendanceSummary `json:"counts"`
	Hours  []PortalAttendanceHour  `json:"hours"`
}

// PortalAttendanceHour is one lesson hour's status.
type PortalAttendanceHour struct {
	Hour   int    `json:"hour"`
	Status string `json:"status" jsonschema:"enum=H,enum=S,enum=I,enum=A,enum=T"`
}

// PortalMessage is a message the school sent to the guardian's phone.
type PortalMessage struct {
	ID          int64      `json:"id" db:"id"`
	StudentName string     `json:"student_name" db:"student_name"`
	Event       string     `json:"event" db:"event"`
	Body        string     `json:"body" db:"body"`
	SentAt      *time.Time `json:"sent_at" db:"sent_at" jsonschema:"format=date-time"`
}

// Excuse kinds and statuses (docs/portal.md, "Excuses").
const (
	ExcuseSakit    = "sakit"
	ExcuseIzin     = "izin"
	ExcusePending  = "pending"
	ExcuseApproved = "approved"
	ExcuseRefused  = "refused"
)

// ExcuseInput is a guardian's request: whole days from..to, or some
// lesson hours of one day.
type ExcuseInput struct {
	Kind        string `json:"kind" jsonschema:"required,enum=sakit,enum=izin"`
	From        string `json:"from" jsonschema:"required,format=date"`
	To          string `json:"to" jsonschema:"format=date"`
	LessonHours []int  `json:"lesson_hours" jsonschema:"nullable"`
	Reason      string `json:"reason" jsonschema:"required,maxLength=1000"`
}

// Excuse is a request and its decision.
type Excuse struct {
	ID            int64      `json:"id"`
	StudentID     int64      `json:"student_id"`
	StudentName   string     `json:"student_name"`
	ClassName     string     `json:"class_name"`
	GuardianName  string     `json:"guardian_name"`
	Kind          string     `json:"kind"`
	From          string     `json:"from" jsonschema:"format=date"`
	To            string     `json:"to" jsonschema:"format=date"`
	LessonHours   []int      `json:"lesson_hours" jsonschema:"nullable"` // null: whole days
	Reason        string     `json:"reason"`
	Status        string     `json:"status" jsonschema:"enum=pending,enum=approved,enum=refused"`
	DecidedByName string     `json:"decided_by_name"`
	DecidedAt     *time.Time `json:"decided_at" jsonschema:"format=date-time"`
	RefusalReason string     `json:"refusal_reason"`
	CreatedAt     time.Time  `json:"created_at" jsonschema:"format=date-time"`
	// Photos counts its pictures: GET /excuses/{id}/photos/{1..n}.
	Photos int `json:"photos" jsonschema_description:"how many photos: GET /excuses/{id}/photos/{1..n}"`
}

// ExcuseRefusal is POST /excuses/{id}/refuse.
type ExcuseRefusal struct {
	Reason string `json:"reason"`
}

// ExcuseDecision answers an approval: the excuse and what the attendance
// save did.
type ExcuseDecision struct {
	Excuse     Excuse           `json:"excuse"`
	Attendance AttendanceResult `json:"attendance" jsonschema_description:"the attendance save's counts, as POST /attendance answers them"`
}

// PortalRegistration is POST /portal/register: a guardian links themself to
// a child by the child's NISN and date of birth.
type PortalRegistration struct {
	NISN         string `json:"nisn" jsonschema:"required"`
	DateOfBirth  string `json:"date_of_birth" jsonschema:"required,format=date"`
	Phone        string `json:"phone" jsonschema:"required"`
	Name         string `json:"name" jsonschema:"required"`
	Relationship string `json:"relationship" jsonschema:"enum=ayah,enum=ibu,enum=wali,enum=lainnya"`
}

// PortalRegistrationAnswer: verified (sign in now) or pending (the school
// checks first). A NISN and date of birth that match no student answer
// pending too.
type PortalRegistrationAnswer struct {
	Status string `json:"status" jsonschema:"enum=verified,enum=pending"`
}

// GuardianVerification is POST /guardians/{id}/verify.
type GuardianVerification struct {
	StudentID int64  `json:"student_id" jsonschema:"required"`
	Approve   bool   `json:"approve"`
	Reason    string `json:"reason" jsonschema:"maxLength=500"`
}

// PortalCodeRequestRow is a recent code request on the staff's screen.
type PortalCodeRequestRow struct {
	ID           int64     `json:"id" db:"id"`
	Phone        string    `json:"phone" db:"phone"`
	Address      string    `json:"address" db:"address"`
	Kind         string    `json:"kind" db:"kind" jsonschema:"enum=whatsapp,enum=activation"`
	GuardianName string    `json:"guardian_name" db:"guardian_name"`
	Tries        int       `json:"tries" db:"tries"`
	Used         bool      `json:"used" db:"used"`
	CreatedAt    time.Time `json:"created_at" db:"created_at" jsonschema:"format=date-time"`
}

// PortalSessionRow is an active portal session on the staff's screen.
type PortalSessionRow struct {
	GuardianID   int64     `json:"guardian_id" db:"guardian_id"`
	GuardianName string    `json:"guardian_name" db:"guardian_name"`
	CreatedAt    time.Time `json:"created_at" db:"created_at" jsonschema:"format=date-time"`
	LastSeenAt   time.Time `json:"last_seen_at" db:"last_seen_at" jsonschema:"format=date-time"`
	UserAgent    string    `json:"user_agent" db:"user_agent"`
	Address      string    `json:"address" db:"address"`
}

// PortalRegistrationRow is a recent self-registration on the staff's screen.
type PortalRegistrationRow struct {
	ID          int64     `json:"id" db:"id"`
	NISN        string    `json:"nisn" db:"nisn"`
	Phone       string    `json:"phone" db:"phone"`
	Name        string    `json:"name" db:"name"`
	Relation    string    `json:"relation" db:"relation"`
	StudentName string    `json:"student_name" db:"student_name"`
	Outcome     string    `json:"outcome" db:"outcome" jsonschema:"enum=verified,enum=pending,enum=no_match,enum=approved,enum=refused"`
	Reason      string    `json:"reason" db:"reason"`
	CreatedAt   time.Time `json:"created_at" db:"created_at" jsonschema:"format=date-time"`
}

// PushKey is the server's VAPID public key (base64url, uncompressed P-256).
type PushKey struct {
	PublicKey string `json:"public_key"`
}

// PushSubscription is a browser's PushSubscription.toJSON().
type PushSubscription struct {
	Endpoint string `json:"endpoint" jsonschema:"required,maxLength=1000"`
	Keys     struct {
		P256dh string `json:"p256dh" jsonschema:"required"`
		Auth   string `json:"auth" jsonschema:"required"`
	} `json:"keys" jsonschema:"required"`
}

// LetterActivationInput is POST /warning-letters/{id}/activation-pdf: the
// guardian whose one-time activation code the letter carries.
type LetterActivationInput struct {
	GuardianID int64 `json:"guardian_id"`
}
