// Package gateway sends one WhatsApp message through the school's gateway
// (Fonnte, Wablas, go-whatsapp-web-multidevice or a generic webhook) and
// classifies the answer: sent, a permanent failure (no retry), a temporary
// one (retry with backoff) or a rate limit (pause every worker).
package gateway

import (
	"context"
	"net/http"
	"time"
)

// Outcome is how an answer was classified; the values are api.Outcome*.
type Outcome string

// The outcomes.
const (
	Sent        Outcome = "sent"
	Permanent   Outcome = "permanent"
	Temporary   Outcome = "temporary"
	RateLimited Outcome = "rate_limited"
)

// MaxAnswer is how much of a gateway's body a Result keeps.
const MaxAnswer = 4096

// Result is one send's answer.
type Result struct {
	Outcome Outcome
	// MessageID is the gateway's id of the message, when it gave one.
	MessageID string
	// HTTPStatus is 0 when no answer came (timeout, refused connection).
	HTTPStatus int
	// Answer is the body as received (at most MaxAnswer bytes, invalid
	// UTF-8 replaced), or the transport error's text.
	Answer string
	// Reason is a short catalogue key suffix for the screens:
	// "ok", "bad_token", "not_on_whatsapp", "invalid_number", "timeout",
	// "unreachable", "server_error", "rate_limited", "rejected",
	// "bad_answer".
	Reason   string
	Duration time.Duration
	// RetryAfter is the gateway's own wait, when it said one (429).
	RetryAfter time.Duration
}

// Config is one gateway's connection.
type Config struct {
	Kind        string // fonnte | wablas | gowa | webhook
	BaseURL     string
	Token       string
	Username    string
	Password    string
	WebhookBody string
	Timeout     time.Duration
}

// Message is what is sent.
type Message struct {
	// Phone is normalised international digits (628…).
	Phone       string
	Text        string
	StudentName string
}

// Gateway sends one message. Send never returns an error: every failure is
// a Result with its Outcome.
type Gateway interface {
	Send(ctx context.Context, m Message) Result
}

// New returns the gateway of c.Kind. client may be nil (a client with
// c.Timeout is made).
func New(c Config, client *http.Client) (Gateway, error) {
	return newGateway(c, client)
}
