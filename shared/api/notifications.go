package api

import "time"

// Notification kinds: one manual violation; one attendance save or
// journal push grouped per recipient and date; one warning letter an
// attendance save or push issued, raised, lowered or withdrew; one
// violation corrected (to the people told of it when it was recorded);
// one anonymous report filed through /lapor (to the new case's team and
// the administrators: its number and category, nothing else).
const (
	NotificationViolation          = "violation"
	NotificationAttendance         = "attendance"
	NotificationLetter             = "letter"
	NotificationViolationCorrected = "violation_corrected"
	NotificationCaseReport         = "case_report"
)

// WebSocket message types (GET /api/v1/ws).
const (
	WSNotification = "notification"
	WSSummary      = "summary"
	WSUnread       = "unread"
)

// Notification is one notification of the signed-in user. Title and Body are
// rendered in the reader's language from Kind and Params; they are not
// stored.
type Notification struct {
	ID     int64          `json:"id"`
	Kind   string         `json:"kind" jsonschema:"enum=violation,enum=attendance,enum=letter,enum=violation_corrected,enum=case_report" jsonschema_description:"violation_corrected: a violation corrected (PATCH /violations/{id}), to the people its recording told; letter: a letter an attendance save or push issued, raised, lowered or withdrew (params.change); case_report: an anonymous report filed through /lapor, to the new case's team and the administrators (params case_id, category; url /kasus/{id})"`
	Title  string         `json:"title"`
	Body   string         `json:"body"`
	URL    string         `json:"url" jsonschema_description:"a path of the front end, e.g. /violations/12"`
	Params map[string]any `json:"params" jsonschema_description:"violation: student, class, type, points, date, student_id; attendance: date, alpha, late, count, source (journal|form), class (when one class)"`
	// ViolationID is set for kind violation; the violation may have been
	// deleted since.
	ViolationID *int64     `json:"violation_id"`
	CreatedAt   time.Time  `json:"created_at"`
	ReadAt      *time.Time `json:"read_at"`
}

// UnreadCount is the number of unread notifications of the signed-in user.
type UnreadCount struct {
	Count int `json:"count"`
}

// WSMessage is one message on the WebSocket. Type notification carries ID
// (a string: the desktop app's message id is one), Kind, Title, Body, URL
// and CreatedAt; summary carries Count, Title, Body, URL and LastID; unread
// carries Count.
type WSMessage struct {
	Type      string     `json:"type" jsonschema:"enum=notification,enum=summary,enum=unread"`
	ID        string     `json:"id,omitempty" jsonschema_description:"notification: its id, as a string"`
	Kind      string     `json:"kind,omitempty"`
	Title     string     `json:"title,omitempty"`
	Body      string     `json:"body,omitempty"`
	URL       string     `json:"url,omitempty"`
	Count     int        `json:"count" jsonschema_description:"summary: how many; unread: the unread count"`
	LastID    string     `json:"last_id,omitempty" jsonschema_description:"summary: the newest id it covers"`
	CreatedAt *time.Time `json:"created_at,omitempty"`
}
