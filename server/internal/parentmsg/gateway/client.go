package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// readLimit bounds how much of an answer is read at all: enough to parse
// any real gateway's answer, never a runaway body into memory.
const readLimit = 64 << 10

// DefaultTimeout bounds one send when Config.Timeout is zero.
const DefaultTimeout = 15 * time.Second

// newGateway checks c and returns the client of its kind.
func newGateway(c Config, client *http.Client) (Gateway, error) {
	u, err := url.Parse(strings.TrimSpace(c.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway: base URL %q: want an http or https address", c.BaseURL)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	h := &sender{cfg: c, client: noRedirects(client, c.Timeout)}
	switch c.Kind {
	case "fonnte":
		h.url = endpoint(u, "/send")
		return &fonnte{h}, nil
	case "wablas":
		h.url = endpoint(u, "/api/send-message")
		return &wablas{h}, nil
	case "gowa":
		h.url = endpoint(u, "/send/message")
		return &gowa{h}, nil
	case "webhook":
		h.url = u.String()
		return &webhook{h}, nil
	}
	return nil, fmt.Errorf("gateway: unknown kind %q", c.Kind)
}

// endpoint appends the send path unless the school entered the whole send
// address already. A query stays (go-whatsapp-web-multidevice takes
// ?device_id= to choose one of several WhatsApp accounts).
func endpoint(base *url.URL, path string) string {
	u := *base
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if !strings.HasSuffix(u.Path, path) {
		u.Path += path
	}
	return u.String()
}

// noRedirects copies client (or makes one) so that it never follows a
// redirect: a send is a POST that a redirect would turn into a GET, and a
// redirect to another host must not carry the token. A 3xx is answered as
// it came.
func noRedirects(client *http.Client, timeout time.Duration) *http.Client {
	var c http.Client
	if client != nil {
		c = *client
	} else {
		c.Timeout = timeout
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// sender is what every kind shares: the connection, the request and the
// reading of the answer.
type sender struct {
	cfg    Config
	client *http.Client
	url    string
}

// answer is one exchange as received.
type answer struct {
	status     int
	body       []byte
	retryAfter time.Duration
}

// post sends body and reads the answer. On a transport failure it returns
// the Result to give (HTTPStatus 0) and ok=false.
func (s *sender) post(ctx context.Context, contentType string, body []byte, auth func(*http.Request)) (answer, *Result) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		// Not the error's text: it would carry the address.
		return answer{}, &Result{Outcome: Permanent, Reason: "rejected", Answer: "the gateway address is not valid"}
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Tatib")
	if auth != nil {
		auth(req)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return answer{}, s.transportFailure(ctx, err, time.Since(start))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, readLimit))
	if err != nil && len(raw) == 0 {
		// The status came but the body broke off: the gateway did answer,
		// so keep its status and say what happened to the body.
		raw = []byte(transportText(err))
	}
	return answer{status: res.StatusCode, body: raw, retryAfter: retryAfter(res.Header.Get("Retry-After"))}, nil
}

// transportFailure classifies a send that got no answer: temporary, since
// the gateway may be back soon.
func (s *sender) transportFailure(ctx context.Context, err error, waited time.Duration) *Result {
	r := &Result{Outcome: Temporary, Reason: "unreachable", Answer: s.redact(transportText(err))}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		r.Reason = "timeout"
		r.Answer = s.redact(fmt.Sprintf("no answer after %v: %s", waited.Round(time.Millisecond), transportText(err)))
	}
	return r
}

// transportText is the error without the request's URL, which a webhook
// address may carry a key in.
func transportText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// result starts a Result from an answer: status and the kept body.
func (s *sender) result(a answer) Result {
	return Result{HTTPStatus: a.status, Answer: s.redact(keep(a.body))}
}

// redact removes the secrets, should a gateway echo them back.
func (s *sender) redact(text string) string {
	for _, secret := range []string{s.cfg.Token, s.cfg.Password} {
		if len(secret) >= 4 {
			text = strings.ReplaceAll(text, secret, "***")
		}
	}
	return text
}

// keep is the body as stored: invalid UTF-8 replaced, at most MaxAnswer
// bytes, cut at a character boundary.
func keep(body []byte) string {
	if len(body) > MaxAnswer+utf8.UTFMax {
		body = body[:MaxAnswer+utf8.UTFMax]
	}
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	if len(s) <= MaxAnswer {
		return s
	}
	cut := MaxAnswer
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// byStatus classifies a non-2xx answer the same way for every kind:
// 401/403 a bad token, 429 a rate limit, 408 and 5xx temporary, any other
// status (3xx, 4xx) a permanent refusal.
func byStatus(r *Result, a answer) {
	switch {
	case a.status == http.StatusUnauthorized || a.status == http.StatusForbidden:
		r.Outcome, r.Reason = Permanent, "bad_token"
	case a.status == http.StatusTooManyRequests:
		r.Outcome, r.Reason = RateLimited, "rate_limited"
		r.RetryAfter = a.retryAfter
	case a.status == http.StatusRequestTimeout || a.status == http.StatusGatewayTimeout:
		r.Outcome, r.Reason = Temporary, "timeout"
	case a.status >= 500:
		r.Outcome, r.Reason = Temporary, "server_error"
		r.RetryAfter = a.retryAfter
	default:
		r.Outcome, r.Reason = Permanent, "rejected"
	}
}

// refinable reports whether a status:false body may say more than the
// status: a 4xx other than the credential and rate-limit ones.
func refinable(status int) bool {
	return status >= 400 && status < 500 && status != 401 && status != 403 && status != 429
}

// byReason classifies a gateway's own failure text (Fonnte's "reason",
// Wablas' "message") when it answered HTTP 200 with status false.
func byReason(r *Result, text string) {
	t := strings.ToLower(text)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("token", "unknown user", "unauthori", "unauthenticated", "access denied", "api key"):
		r.Outcome, r.Reason = Permanent, "bad_token"
	case has("disconnect", "not connected", "scan qr", "qr code", "offline"):
		// The school's WhatsApp phone dropped off the gateway; the message
		// goes once it is linked again.
		r.Outcome, r.Reason = Temporary, "unreachable"
	case has("quota", "rate limit", "too many", "limit exceeded", "limit reached"):
		r.Outcome, r.Reason = RateLimited, "rate_limited"
	case has("not registered", "not on whatsapp", "not exist", "no whatsapp", "not a whatsapp"):
		r.Outcome, r.Reason = Permanent, "not_on_whatsapp"
	case has("invalid") && has("target", "phone", "number"):
		r.Outcome, r.Reason = Permanent, "invalid_number"
	default:
		r.Outcome, r.Reason = Permanent, "rejected"
	}
}

// badAnswer is a 2xx whose body is not what the gateway documents (a proxy's
// page, a truncated body): temporary, since the gateway did not confirm.
func badAnswer(r *Result) {
	r.Outcome, r.Reason = Temporary, "bad_answer"
}

// sent marks r sent with id.
func sent(r *Result, id string) {
	r.Outcome, r.Reason, r.MessageID = Sent, "ok", id
}

// idText reads an id given as a JSON string or number.
func idText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// timed runs send and sets the Result's Duration.
func timed(send func() Result) Result {
	start := time.Now()
	r := send()
	r.Duration = time.Since(start)
	return r
}
