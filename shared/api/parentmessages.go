package api

import "time"

// Parent messaging events (docs/parent-messaging.md).
const (
	ParentEventViolation     = "violation"
	ParentEventWarningLetter = "warning_letter"
	ParentEventSummons       = "summons"
	// ParentEventAchievement: a counselor verified an achievement.
	ParentEventAchievement = "achievement"
)

// Parent message statuses. Skipped: the student has no usable parent
// phone (SkipReason "no_phone" or "invalid_phone").
const (
	ParentMessageQueued    = "queued"
	ParentMessageSent      = "sent"
	ParentMessageFailed    = "failed"
	ParentMessageCancelled = "cancelled"
	ParentMessageSkipped   = "skipped"
)

// Gateway kinds.
const (
	GatewayFonnte  = "fonnte"
	GatewayWablas  = "wablas"
	GatewayGowa    = "gowa"
	GatewayWebhook = "webhook"
)

// Send outcomes: how an answer of the gateway was classified.
const (
	OutcomeSent        = "sent"
	OutcomePermanent   = "permanent"
	OutcomeTemporary   = "temporary"
	OutcomeRateLimited = "rate_limited"
)

// MessagingGateway is the gateway's connection. Token and Password are
// write-only: a PUT with them absent (null) keeps the stored ones, "" clears
// them; a GET never answers them, only TokenSet and PasswordSet.
type MessagingGateway struct {
	// Kind is fonnte, wablas, gowa or webhook; "" means no gateway (nothing
	// is sent; messages wait in the outbox).
	Kind     string  `json:"kind"`
	BaseURL  string  `json:"base_url"`
	Token    *string `json:"token,omitempty"`
	Username string  `json:"username"`
	Password *string `json:"password,omitempty"`
	// WebhookBody is the generic webhook's JSON body with {phone},
	// {message} and {student_name} placeholders (each inserted as a JSON
	// string's content).
	WebhookBody string `json:"webhook_body"`
	// TimeoutSeconds bounds one send (1..60, default 15).
	TimeoutSeconds int  `json:"timeout_seconds"`
	TokenSet       bool `json:"token_set"`
	PasswordSet    bool `json:"password_set"`
}

// MessagingEvent is one event's switch and template.
type MessagingEvent struct {
	Enabled  bool   `json:"enabled"`
	Template string `json:"template"`
	// MinPoints (violation only): send only from this many points (0: all).
	MinPoints int `json:"min_points"`
	// IncludeAutomatic (violation only): also for the automatic alpha/late
	// violations attendance creates: one message per student and school day
	// for that day's automatic violations, sent SettleMinutes after the
	// day's last change, none for a day that ended with nothing to report.
	IncludeAutomatic bool `json:"include_automatic"`
	// SettleMinutes (violation only): how long an attendance day's message
	// waits after the day's last change (1..1440, default 30). A PUT
	// without it (or 0) keeps the stored value.
	SettleMinutes int `json:"settle_minutes,omitempty"`
	// SendOn (warning_letter only): "sent" (default), the message goes when
	// a counselor marks the letter sent to the parent; "printed", also when
	// it is printed. A letter drafted, raised, lowered or withdrawn by a
	// rule sends nothing. A PUT without it keeps the stored value.
	SendOn string `json:"send_on,omitempty"`
	// CorrectionTemplate (warning_letter only): the one message that
	// follows a letter withdrawn after its message went out. A PUT without
	// it keeps the stored one.
	CorrectionTemplate string `json:"correction_template,omitempty"`
}

// When a letter's message goes (MessagingEvent.SendOn).
const (
	LetterSendOnSent    = "sent"
	LetterSendOnPrinted = "printed"
)

// MessagingEvents are the three events.
type MessagingEvents struct {
	Violation     MessagingEvent `json:"violation"`
	WarningLetter MessagingEvent `json:"warning_letter"`
	Summons       MessagingEvent `json:"summons"`
	Achievement   MessagingEvent `json:"achievement"`
}

// QuietHours: messages due between From and To (Asia/Jakarta, "HH:MM",
// may span midnight) wait until To.
type QuietHours struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// MessagingSettings is GET/PUT /settings/messaging.
type MessagingSettings struct {
	Gateway    MessagingGateway `json:"gateway"`
	Events     MessagingEvents  `json:"events"`
	QuietHours *QuietHours      `json:"quiet_hours"`
	UpdatedAt  *time.Time       `json:"updated_at,omitempty"`
	// Placeholders lists what templates may use (answer only).
	Placeholders []string `json:"placeholders,omitempty"`
}

// MessagingTestRequest is POST /settings/messaging/test. Gateway, when
// given, is tried instead of the stored one (its absent secrets taken from
// the stored ones), so a form can be tried before it is saved.
type MessagingTestRequest struct {
	Phone   string            `json:"phone"`
	Message string            `json:"message,omitempty"`
	Gateway *MessagingGateway `json:"gateway,omitempty"`
}

// MessagingTestResult is exactly what the gateway answered.
type MessagingTestResult struct {
	Outcome    string `json:"outcome"`
	Phone      string `json:"phone"`
	HTTPStatus int    `json:"http_status"`
	// Answer is the gateway's body as received (at most 4 KiB), or the
	// transport error when nothing came back.
	Answer     string `json:"answer"`
	MessageID  string `json:"message_id"`
	DurationMS int64  `json:"duration_ms"`
	// Summary explains the outcome in the reader's language.
	Summary string `json:"summary"`
}

// MessagingPreviewRequest is POST /settings/messaging/preview: the template
// rendered with a real student's data (their latest violation, letter or
// summons when they have one, example values otherwise).
type MessagingPreviewRequest struct {
	Event     string `json:"event" jsonschema:"required"`
	Template  string `json:"template" jsonschema:"required"`
	StudentID int64  `json:"student_id" jsonschema:"required"`
}

// MessagingPreview is the rendered text.
type MessagingPreview struct {
	Text        string            `json:"text"`
	Values      map[string]string `json:"values"`
	StudentName string            `json:"student_name"`
	Phone       string            `json:"phone"`
	PhoneIssue  string            `json:"phone_issue,omitempty"`
}

// ParentMessage is one row of the delivery log. Phone is masked unless the
// reader holds parent_messages.manage (PhoneMasked says which).
type ParentMessage struct {
	ID               int64      `json:"id" db:"id"`
	StudentID        int64      `json:"student_id" db:"student_id"`
	StudentName      string     `json:"student_name" db:"student_name"`
	ClassName        string     `json:"class_name" db:"class_name"`
	Event            string     `json:"event" db:"event"`
	ViolationID      *int64     `json:"violation_id" db:"violation_id"`
	LetterID         *int64     `json:"letter_id" db:"letter_id"`
	HandlingID       *int64     `json:"handling_id" db:"handling_id"`
	ParentName       string     `json:"parent_name" db:"parent_name"`
	Phone            string     `json:"phone" db:"phone"`
	PhoneMasked      bool       `json:"phone_masked" db:"-"`
	Body             string     `json:"body" db:"body"`
	Status           string     `json:"status" db:"status"`
	SkipReason       string     `json:"skip_reason" db:"skip_reason"`
	Attempts         int        `json:"attempts" db:"attempts"`
	NextAttemptAt    *time.Time `json:"next_attempt_at" db:"next_attempt_at"`
	Gateway          string     `json:"gateway" db:"gateway"`
	GatewayMessageID string     `json:"gateway_message_id" db:"gateway_message_id"`
	LastOutcome      string     `json:"last_outcome" db:"last_outcome"`
	LastHTTPStatus   *int       `json:"last_http_status" db:"last_http_status"`
	LastAnswer       string     `json:"last_answer" db:"last_answer"`
	CreatedAt        time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at" db:"updated_at"`
	SentAt           *time.Time `json:"sent_at" db:"sent_at"`
}

// ParentMessageAttempt is one answer of the gateway.
type ParentMessageAttempt struct {
	ID          int64     `json:"id" db:"id"`
	AttemptedAt time.Time `json:"attempted_at" db:"attempted_at"`
	DurationMS  int       `json:"duration_ms" db:"duration_ms"`
	Gateway     string    `json:"gateway" db:"gateway"`
	Outcome     string    `json:"outcome" db:"outcome"`
	HTTPStatus  *int      `json:"http_status" db:"http_status"`
	Answer      string    `json:"answer" db:"answer"`
}

// ParentMessageDetail is GET /parent-messages/{id}.
type ParentMessageDetail struct {
	ParentMessage
	AttemptLog []ParentMessageAttempt `json:"attempt_log"`
}

// ParentMessageList is GET /parent-messages?status=&student_id=&event=&class_id=&from=&to=&page=:
// the house page shape plus the counts per status (over the same filter
// without the status filter) and the gateway pause.
type ParentMessageList struct {
	Data        []ParentMessage `json:"data"`
	Meta        PageMeta        `json:"meta"`
	Counts      map[string]int  `json:"counts"`
	PausedUntil *time.Time      `json:"paused_until"`
	PauseReason string          `json:"pause_reason"`
}

// ParentContactInput is PATCH /students/{id}. Absent fields keep what is
// stored. ContactSource "sync" hands the contact back to student affairs
// (the synced values are restored and later syncs update them again).
type ParentContactInput struct {
	ParentName    *string `json:"parent_name"`
	ParentPhone   *string `json:"parent_phone"`
	ContactSource *string `json:"parent_contact_source"`
}
