package api

import "time"

// Face-ID (issue 16, docs/face-id.md). The server stores embeddings only,
// never an image; matching is cosine similarity on the server.

// Consent relationships and methods.
const (
	FaceRelFather   = "father"
	FaceRelMother   = "mother"
	FaceRelGuardian = "guardian"
	FaceRelOther    = "other"

	FaceMethodPaper    = "paper"
	FaceMethodDigital  = "digital"
	FaceMethodInPerson = "in_person"
)

// Liveness challenge kinds.
const (
	ChallengeBlink     = "blink"
	ChallengeTurnLeft  = "turn_left"
	ChallengeTurnRight = "turn_right"
)

// Scan outcomes and their attendance effect.
const (
	ScanMatched        = "matched"
	ScanUncertain      = "uncertain"
	ScanUnknown        = "unknown"
	ScanLivenessFailed = "liveness_failed"
	ScanModelMismatch  = "not_enrolled_model"

	ScanAttendancePresent = "H"
	ScanAttendanceLate    = "T"
	ScanAttendanceKept    = "kept" // the first lesson hour was already filled
	ScanAttendanceNone    = "none"
)

// How a reviewer resolved an uncertain scan (a scan's resolution).
const (
	ScanConfirmed = "confirmed"
	ScanRejected  = "rejected"
)

// ScanResolutions are the resolutions a scan is stored with.
var ScanResolutions = []string{ScanConfirmed, ScanRejected}

// Enrolment limits: 3–5 samples per student.
const (
	FaceMinSamples = 3
	FaceMaxSamples = 5
)

// FaceConsentInput is PUT /students/{id}/face-consent: the parent's
// consent as the school holds it. A second PUT while one is active
// corrects it (the embeddings stay).
type FaceConsentInput struct {
	GuardianName string `json:"guardian_name" jsonschema:"required,minLength=1,maxLength=120"` // 1–120 characters
	Relationship string `json:"relationship" jsonschema:"required,enum=father,enum=mother,enum=guardian,enum=other"`
	Method       string `json:"method" jsonschema:"required,enum=paper,enum=digital,enum=in_person"`
	GivenOn      string `json:"given_on" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD, not after today (Asia/Jakarta)"`
	Reference    string `json:"reference" jsonschema:"maxLength=200"` // may be empty
}

// FaceConsentWithdrawal is the optional body of DELETE /students/{id}/face-consent.
type FaceConsentWithdrawal struct {
	Reason string `json:"reason" jsonschema:"maxLength=500"`
}

// FaceConsent is one consent record (active or withdrawn).
type FaceConsent struct {
	ID               int64      `json:"id"`
	GuardianName     string     `json:"guardian_name"`
	Relationship     string     `json:"relationship"`
	Method           string     `json:"method"`
	GivenOn          string     `json:"given_on" jsonschema:"format=date"`
	Reference        string     `json:"reference"`
	RecordedByName   string     `json:"recorded_by_name"`
	RecordedAt       time.Time  `json:"recorded_at" jsonschema:"format=date-time"`
	WithdrawnAt      *time.Time `json:"withdrawn_at" jsonschema:"format=date-time"`
	WithdrawnByName  string     `json:"withdrawn_by_name"`
	WithdrawalReason string     `json:"withdrawal_reason"`
}

// FaceStatus is GET /students/{id}/face, and the answer of every consent
// and enrolment change: the active consent (null: none), the history, and
// what is enrolled.
type FaceStatus struct {
	StudentID   int64         `json:"student_id"`
	StudentName string        `json:"student_name"`
	Consent     *FaceConsent  `json:"consent" jsonschema_description:"the active consent; null: none"`
	History     []FaceConsent `json:"history" jsonschema_description:"newest first, the active one included"`
	Samples     int           `json:"samples"` // embeddings stored
	Model       string        `json:"model"`   // "" when none
	EnrolledAt  *time.Time    `json:"enrolled_at" jsonschema:"format=date-time"`
}

// FaceEnrolmentInput is POST /students/{id}/face-enrolments: 3–5
// embeddings of one model, all of one length (16–4096 finite numbers).
// It replaces what the student had enrolled.
type FaceEnrolmentInput struct {
	Model      string      `json:"model" jsonschema:"required,minLength=1,maxLength=80"`
	Embeddings [][]float32 `json:"embeddings" jsonschema:"required,minItems=3,maxItems=5" jsonschema_description:"3–5 samples of one model, each 16–4096 finite numbers, all of one length"`
}

// FaceChallenge is POST /face/challenge (kiosk token): a one-time
// challenge the kiosk must see passed before it sends the scan.
type FaceChallenge struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind" jsonschema:"enum=blink,enum=turn_left,enum=turn_right"`
	ExpiresAt time.Time `json:"expires_at" jsonschema:"format=date-time"`
}

// FaceChallengeResult is what the kiosk observed for a challenge.
type FaceChallengeResult struct {
	ID     string `json:"id" jsonschema:"required,maxLength=64"`
	Kind   string `json:"kind" jsonschema:"required,enum=blink,enum=turn_left,enum=turn_right"`
	Passed bool   `json:"passed"`
	// The observations the kiosk decided on, logged with the scan: for a
	// blink the lowest and highest eye openness (0–1), for a turn the
	// yaw in degrees at the start and at the extreme; the detector's own
	// real/live scores (0–1) as extra signals.
	OpenMin   *float64 `json:"open_min,omitempty"`
	OpenMax   *float64 `json:"open_max,omitempty"`
	YawStart  *float64 `json:"yaw_start,omitempty"`
	YawPeak   *float64 `json:"yaw_peak,omitempty"`
	RealScore *float64 `json:"real_score,omitempty"`
	LiveScore *float64 `json:"live_score,omitempty"`
	Frames    int      `json:"frames"`
	Millis    int      `json:"millis"` // from challenge shown to decided
}

// FaceScanInput is POST /face/scan (kiosk token). Embedding may be empty
// when the challenge failed (the failure is still logged).
type FaceScanInput struct {
	Model     string              `json:"model" jsonschema:"required,minLength=1,maxLength=80"`
	Embedding []float32           `json:"embedding" jsonschema:"maxItems=4096" jsonschema_description:"16–4096 finite numbers; may be empty when the challenge failed"`
	Challenge FaceChallengeResult `json:"challenge" jsonschema:"required"`
}

// FaceScanStudent is who a scan matched.
type FaceScanStudent struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	ClassName string `json:"class_name"`
}

// FaceScanResult is the answer of POST /face/scan.
type FaceScanResult struct {
	ScanID     int64            `json:"scan_id"`
	Outcome    string           `json:"outcome" jsonschema:"enum=matched,enum=uncertain,enum=unknown,enum=liveness_failed,enum=not_enrolled_model"`
	Student    *FaceScanStudent `json:"student" jsonschema_description:"matched only"`
	Attendance string           `json:"attendance" jsonschema:"enum=H,enum=T,enum=kept,enum=none"`
	// Greeting is the message the kiosk shows, in the request's language.
	Greeting  string    `json:"greeting" jsonschema_description:"in the request's language"`
	ScannedAt time.Time `json:"scanned_at" jsonschema:"format=date-time"`
}

// KioskInfo is GET /face/kiosk (kiosk token): the kiosk's own name, the
// school's and the challenges it may ask, for the kiosk's screen.
type KioskInfo struct {
	ID         int64    `json:"id"`
	Name       string   `json:"name"`
	School     string   `json:"school"`
	Challenges []string `json:"challenges" jsonschema:"enum=blink,enum=turn_left,enum=turn_right"`
}

// Kiosk is one row of GET /settings/kiosks.
type Kiosk struct {
	ID            int64      `json:"id"`
	Name          string     `json:"name"`
	TokenHint     string     `json:"token_hint"`
	CreatedByName string     `json:"created_by_name"`
	CreatedAt     time.Time  `json:"created_at" jsonschema:"format=date-time"`
	LastSeenAt    *time.Time `json:"last_seen_at" jsonschema:"format=date-time"`
	RevokedAt     *time.Time `json:"revoked_at" jsonschema:"format=date-time"`
	// AlarmCount is how many times this kiosk matched two different
	// students faster than people can step up to a camera; AlarmAt the
	// last time (docs/face-id.md, "Protecting kiosk tokens").
	AlarmCount int        `json:"alarm_count" jsonschema_description:"times this kiosk matched two different students less than 1.5 s apart"`
	AlarmAt    *time.Time `json:"alarm_at" jsonschema:"format=date-time" jsonschema_description:"the last such match"`
}

// KioskInput is POST /settings/kiosks.
type KioskInput struct {
	Name string `json:"name" jsonschema:"required,minLength=1,maxLength=80"`
}

// KioskCreated is the answer of POST /settings/kiosks: the token is shown
// this once and never again.
type KioskCreated struct {
	Kiosk
	Token string `json:"token" jsonschema_description:"kiosk_ + 43 characters; shown this once"`
}

// FaceSettings is GET/PUT /settings/face.
type FaceSettings struct {
	SchoolStart      string   `json:"school_start" jsonschema:"pattern=^[0-2][0-9]:[0-5][0-9]$"` // HH:MM, Asia/Jakarta
	LateGraceMinutes int      `json:"late_grace_minutes" jsonschema:"minimum=0,maximum=120"`
	Threshold        float64  `json:"threshold" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Margin           float64  `json:"margin" jsonschema:"minimum=0,exclusiveMaximum=1"`
	RetentionDays    int      `json:"retention_days" jsonschema:"minimum=0,maximum=365"`
	Challenges       []string `json:"challenges" jsonschema:"minItems=1,uniqueItems=true,enum=blink,enum=turn_left,enum=turn_right"` // a non-empty subset of the kinds
	// UpdatedAt is left out until the settings are first saved; a PUT
	// body may send it as null (it is ignored).
	UpdatedAt *time.Time `json:"updated_at,omitempty" jsonschema:"nullable,format=date-time"`
}

// FaceScan is one row of GET /face/scans (the log) and GET /face/confirmations
// (uncertain scans waiting for a teacher).
type FaceScan struct {
	ID                  int64      `json:"id"`
	ScannedAt           time.Time  `json:"scanned_at" jsonschema:"format=date-time"`
	KioskName           string     `json:"kiosk_name"`
	Outcome             string     `json:"outcome" jsonschema:"enum=matched,enum=uncertain,enum=unknown,enum=liveness_failed,enum=not_enrolled_model"`
	StudentID           *int64     `json:"student_id"`
	StudentName         string     `json:"student_name"`
	ClassName           string     `json:"class_name"`
	Score               *float64   `json:"score"`
	RunnerUpID          *int64     `json:"runner_up_id"`
	RunnerUpName        string     `json:"runner_up_name"`
	RunnerUpScore       *float64   `json:"runner_up_score"`
	Margin              *float64   `json:"margin"`
	ChallengeKind       string     `json:"challenge_kind"`
	ChallengePassed     bool       `json:"challenge_passed"`
	Attendance          string     `json:"attendance" jsonschema:"enum=H,enum=T,enum=kept,enum=none"`
	Resolution          *string    `json:"resolution" openapi:"FaceReviewResolution" jsonschema_description:"null while the scan waits for a reviewer"`
	ResolvedStudentID   *int64     `json:"resolved_student_id"`
	ResolvedStudentName string     `json:"resolved_student_name"`
	ResolvedByName      string     `json:"resolved_by_name"`
	ResolvedAt          *time.Time `json:"resolved_at" jsonschema:"format=date-time"`
}

// FaceScanResolution is POST /face/scans/{id}/resolve: confirm the scan as
// student_id (the candidate or the runner-up) — which records the
// attendance as of the scan's time — or reject it.
type FaceScanResolution struct {
	Action    string `json:"action" jsonschema:"required,enum=confirm,enum=reject"`
	StudentID int64  `json:"student_id" jsonschema_description:"confirm: the scan's candidate or runner-up"`
}
