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
	Kind     string  `json:"kind" jsonschema:"enum=,enum=fonnte,enum=wablas,enum=gowa,enum=webhook" jsonschema_description:"\"\": no gateway, nothing is queued"`
	BaseURL  string  `json:"base_url"`
	Token    *string `json:"token,omitempty" jsonschema:"nullable,writeOnly=true" jsonschema_description:"absent or null keeps the stored token, \"\" clears it; never answered"`
	Username string  `json:"username" jsonschema_description:"gowa's basic-auth user"`
	Password *string `json:"password,omitempty" jsonschema:"nullable,writeOnly=true" jsonschema_description:"as token"`
	// WebhookBody is the generic webhook's JSON body with {phone},
	// {message} and {student_name} placeholders (each inserted as a JSON
	// string's content).
	WebhookBody string `json:"webhook_body" jsonschema_description:"webhook: the JSON body with {phone}, {message} and {student_name}, each inserted as a JSON string's content"`
	// TimeoutSeconds bounds one send (1..60, default 15).
	TimeoutSeconds int  `json:"timeout_seconds" jsonschema:"minimum=1,maximum=60"`
	TokenSet       bool `json:"token_set" jsonschema_extras:"readOnly=true"`
	PasswordSet    bool `json:"password_set" jsonschema_extras:"readOnly=true"`
}

// MessagingEvent is one event's switch and template.
type MessagingEvent struct {
	Enabled  bool   `json:"enabled"`
	Template string `json:"template" jsonschema:"maxLength=1000"`
	// MinPoints (violation only): send only from this many points (0: all).
	MinPoints int `json:"min_points" jsonschema:"minimum=0,maximum=1000" jsonschema_description:"violation only: send from this many points"`
	// IncludeAutomatic (violation only): also for the automatic alpha/late
	// violations attendance creates: one message per student and school day
	// for that day's automatic violations, sent SettleMinutes after the
	// day's last change, none for a day that ended with nothing to report.
	IncludeAutomatic bool `json:"include_automatic" jsonschema_description:"violation only: also the automatic alpha/late violations from attendance, as one message per student and school day (that day's automatic violations), sent settle_minutes after the day's last change; none for a day that ended with nothing to report; nothing more once it went out"`
	// SettleMinutes (violation only): how long an attendance day's message
	// waits after the day's last change (1..1440, default 30). A PUT
	// without it (or 0) keeps the stored value.
	SettleMinutes int `json:"settle_minutes,omitempty" jsonschema:"minimum=1,maximum=1440,default=30" jsonschema_description:"violation only: how long an attendance day's message waits after the day's last change; absent or 0 in a PUT keeps the stored value (field code parentmsg.settle_minutes)"`
	// SendOn (warning_letter only): "sent" (default), the message goes when
	// a counselor marks the letter sent to the parent; "printed", also when
	// it is printed. A letter drafted, raised, lowered or withdrawn by a
	// rule sends nothing. A PUT without it keeps the stored value.
	SendOn string `json:"send_on,omitempty" jsonschema:"enum=sent,enum=printed,default=sent" jsonschema_description:"warning_letter only: the letter's message goes when a counselor marks it sent to the parent (POST /warning-letters/{id}/send), or also when it is printed; a letter a rule drafts, raises, lowers or withdraws sends nothing. Absent in a PUT keeps the stored value (field code parentmsg.send_on)"`
	// CorrectionTemplate (warning_letter only): the one message that
	// follows a letter withdrawn after its message went out. A PUT without
	// it keeps the stored one.
	CorrectionTemplate string `json:"correction_template,omitempty" jsonschema:"maxLength=1000" jsonschema_description:"warning_letter only: the one message that follows a letter withdrawn after its message went out. Absent or empty in a PUT keeps the stored one"`
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
	Achievement   MessagingEvent `json:"achievement" jsonschema_description:"a counselor verified an achievement: one message per student (placeholders jenis_prestasi and tingkat); left out of a PUT, the stored one stays"`
}

// QuietHours: messages due between From and To (Asia/Jakarta, "HH:MM",
// may span midnight) wait until To.
type QuietHours struct {
	From string `json:"from" jsonschema:"example=21:00"`
	To   string `json:"to" jsonschema:"example=06:00"`
}

// MessagingSettings is GET/PUT /settings/messaging.
type MessagingSettings struct {
	Gateway    MessagingGateway `json:"gateway"`
	Events     MessagingEvents  `json:"events"`
	QuietHours *QuietHours      `json:"quiet_hours" jsonschema_description:"Asia/Jakarta; may span midnight; null: no quiet hours"`
	UpdatedAt  *time.Time       `json:"updated_at,omitempty" jsonschema:"format=date-time,readOnly=true"`
	// Placeholders lists what templates may use (answer only).
	Placeholders []string `json:"placeholders,omitempty" jsonschema_extras:"readOnly=true"`
}

// MessagingTestRequest is POST /settings/messaging/test. Gateway, when
// given, is tried instead of the stored one (its absent secrets taken from
// the stored ones), so a form can be tried before it is saved.
type MessagingTestRequest struct {
	Phone   string            `json:"phone" jsonschema:"required"`
	Message string            `json:"message,omitempty" jsonschema:"maxLength=1000"`
	Gateway *MessagingGateway `json:"gateway,omitempty"`
}

// MessagingTestResult is exactly what the gateway answered.
type MessagingTestResult struct {
	Outcome    string `json:"outcome" jsonschema:"enum=sent,enum=permanent,enum=temporary,enum=rate_limited"`
	Phone      string `json:"phone" jsonschema_description:"the normalised number"`
	HTTPStatus int    `json:"http_status" jsonschema_description:"0 when no answer came"`
	// Answer is the gateway's body as received (at most 4 KiB), or the
	// transport error when nothing came back.
	Answer     string `json:"answer"`
	MessageID  string `json:"message_id"`
	DurationMS int64  `json:"duration_ms"`
	// Summary explains the outcome in the reader's language.
	Summary string `json:"summary" jsonschema_description:"the outcome explained in the request's language"`
}

// MessagingPreviewRequest is POST /settings/messaging/preview: the template
// rendered with a real student's data (their latest violation, letter or
// summons when they have one, example values otherwise).
type MessagingPreviewRequest struct {
	Event     string `json:"event" jsonschema:"required,enum=violation,enum=warning_letter,enum=summons,enum=achievement"`
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
	ClassName        string     `json:"class_name" db:"class_name" jsonschema_description:"the student's class now"`
	Event            string     `json:"event" db:"event" jsonschema:"enum=violation,enum=warning_letter,enum=summons,enum=achievement,enum=portal_code,enum=excuse" jsonschema_description:"achievement: an achievement verified; portal_code: a family portal sign-in code (digits hidden here); excuse: the decision on a guardian's excuse"`
	ViolationID      *int64     `json:"violation_id" db:"violation_id"`
	LetterID         *int64     `json:"letter_id" db:"letter_id"`
	HandlingID       *int64     `json:"handling_id" db:"handling_id"`
	ParentName       string     `json:"parent_name" db:"parent_name"`
	Phone            string     `json:"phone" db:"phone" jsonschema_description:"masked unless the caller holds parent_messages.manage"`
	PhoneMasked      bool       `json:"phone_masked" db:"-"`
	Body             string     `json:"body" db:"body"`
	Status           string     `json:"status" db:"status" jsonschema:"enum=queued,enum=sent,enum=failed,enum=cancelled,enum=skipped"`
	SkipReason       string     `json:"skip_reason" db:"skip_reason" jsonschema:"enum=,enum=no_phone,enum=invalid_phone,enum=consent_withdrawn" jsonschema_description:"consent_withdrawn: the number is a guardian who withdrew consent in the family portal (the worker skips it)"`
	Attempts         int        `json:"attempts" db:"attempts"`
	NextAttemptAt    *time.Time `json:"next_attempt_at" db:"next_attempt_at" jsonschema:"format=date-time" jsonschema_description:"queued only"`
	Gateway          string     `json:"gateway" db:"gateway"`
	GatewayMessageID string     `json:"gateway_message_id" db:"gateway_message_id"`
	LastOutcome      string     `json:"last_outcome" db:"last_outcome" jsonschema:"enum=sent,enum=permanent,enum=temporary,enum=rate_limited,enum="`
	LastHTTPStatus   *int       `json:"last_http_status" db:"last_http_status"`
	LastAnswer       string     `json:"last_answer" db:"last_answer"`
	CreatedAt        time.Time  `json:"created_at" db:"created_at" jsonschema:"format=date-time"`
	UpdatedAt        time.Time  `json:"updated_at" db:"updated_at" jsonschema:"format=date-time"`
	SentAt           *time.Time `json:"sent_at" db:"sent_at" jsonschema:"format=date-time"`
}

// ParentMessageAttempt is one answer of the gateway.
type ParentMessageAttempt struct {
	ID          int64     `json:"id" db:"id"`
	AttemptedAt time.Time `json:"attempted_at" db:"attempted_at" jsonschema:"format=date-time"`
	DurationMS  int       `json:"duration_ms" db:"duration_ms"`
	Gateway     string    `json:"gateway" db:"gateway"`
	Outcome     string    `json:"outcome" db:"outcome" jsonschema:"enum=sent,enum=permanent,enum=temporary,enum=rate_limited"`
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
	Meta        PageMeta        `json:"meta" openapi:"PageMeta"`
	Counts      map[string]int  `json:"counts" jsonschema_description:"per status, over the filter without status"`
	PausedUntil *time.Time      `json:"paused_until" jsonschema:"format=date-time"`
	PauseReason string          `json:"pause_reason"`
}

// ParentContactInput is PATCH /students/{id}. Absent fields keep what is
// stored. ContactSource "sync" hands the contact back to student affairs
// (the synced values are restored and later syncs update them again).
type ParentContactInput struct {
	ParentName    *string `json:"parent_name" jsonschema:"maxLength=150"`
	ParentPhone   *string `json:"parent_phone" jsonschema_description:"empty clears the number"`
	ContactSource *string `json:"parent_contact_source" jsonschema:"enum=sync,enum=staff" jsonschema_description:"sync (alone) hands the contact back to student affairs"`
}
