// Package wasim simulates the WhatsApp gateways Tatib sends through
// (Fonnte, Wablas, go-whatsapp-web-multidevice and a generic webhook),
// answering in each one's real shape, so the gateway clients, the worker
// and the end-to-end tests run against something faithful without a
// phone. A mode makes it fail the way the real one fails; every message it
// accepted is recorded. `tatib-sim wa` serves one from the command line.
//
// It lives under internal/sim with the other simulators (tatib-sim and
// internal/demo use them; production packages do not); the package keeps
// the name wasim so it reads apart from internal/parentmsg.
package wasim

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The kinds, as in the settings.
const (
	Fonnte  = "fonnte"
	Wablas  = "wablas"
	Gowa    = "gowa"
	Webhook = "webhook"
)

// The modes: how the simulator answers a send.
const (
	ModeOK = "ok"
	// ModeFail200: HTTP 200 with a refusal (Fonnte and Wablas: status
	// false, "device disconnected"; the others answer a 500 instead).
	ModeFail200 = "fail200"
	// ModeBadToken answers what the gateway answers for a wrong token,
	// whatever the caller sent.
	ModeBadToken      = "bad_token"
	ModeNotOnWhatsApp = "not_on_whatsapp"
	// ModeRateLimit: 429 (go-whatsapp-web-multidevice: WA_REACHOUT_TIMELOCK).
	ModeRateLimit   = "rate_limit"
	ModeServerError = "server_error"
	// ModeSlow accepts the message, then waits Delay (3 s when unset)
	// before answering, as a gateway that sent but answers late: a caller
	// that gives up first may send again, which Messages shows as a
	// duplicate.
	ModeSlow = "slow"
)

// Modes lists every mode.
var Modes = []string{ModeOK, ModeFail200, ModeBadToken, ModeNotOnWhatsApp, ModeRateLimit, ModeServerError, ModeSlow}

// Paths of the send endpoints and of the control endpoints.
const (
	FonntePath  = "/send"
	WablasPath  = "/api/send-message"
	GowaPath    = "/send/message"
	WebhookPath = "/webhook"
	ControlPath = "/_sim/"
)

// Mode is how the next sends are answered (POST /_sim/mode).
type Mode struct {
	Mode string `json:"mode"`
	// FailFirst > 0: only the next FailFirst sends answer Mode; the ones
	// after are answered ok (an outage, then recovery).
	FailFirst int `json:"fail_first"`
	// DelayMS is added before every answer (ModeSlow's wait).
	DelayMS int `json:"delay_ms"`
	// NumericIDs: Fonnte answers its ids as numbers instead of strings
	// (the real one does both).
	NumericIDs bool `json:"numeric_ids"`
}

// Message is one message the simulator accepted.
type Message struct {
	ID          string    `json:"id"`
	Phone       string    `json:"phone"`
	Text        string    `json:"text"`
	StudentName string    `json:"student_name,omitempty"`
	At          time.Time `json:"at"`
	// Copy is 1 for the first message with this phone and text, 2 for the
	// second, …: anything above 1 is a duplicate.
	Copy int `json:"copy"`
}

// Sim is one simulated gateway: an http.Handler.
type Sim struct {
	kind string
	// Token is the token a caller must send (Fonnte, Wablas; the webhook
	// as a bearer token); empty accepts any.
	Token string
	// Username and Password are the basic-auth credentials
	// go-whatsapp-web-multidevice (or the webhook) requires; empty
	// accepts any.
	Username, Password string

	mu       sync.Mutex
	mode     Mode
	failLeft int
	requests int
	messages []Message
	copies   map[string]int
	nextID   int64
	server   *httptest.Server
}

// New returns a simulator of kind (fonnte, wablas, gowa or webhook)
// answering ok. It panics on an unknown kind: a test's mistake.
func New(kind string) *Sim {
	switch kind {
	case Fonnte, Wablas, Gowa, Webhook:
	default:
		panic(fmt.Sprintf("wasim: unknown kind %q", kind))
	}
	return &Sim{kind: kind, mode: Mode{Mode: ModeOK}, copies: map[string]int{}, nextID: 80833170}
}

// Kind is the simulated gateway's kind.
func (s *Sim) Kind() string { return s.kind }

// Start serves the simulator on a local port and returns the base URL to
// enter in Tatib's settings. Close stops it.
func (s *Sim) Start() string {
	s.server = httptest.NewServer(s)
	return s.BaseURL(s.server.URL)
}

// Close stops a started simulator.
func (s *Sim) Close() {
	if s.server != nil {
		s.server.Close()
	}
}

// BaseURL is the address to enter in Tatib for a simulator served at root
// (http://host:port): the root itself, the webhook's endpoint for a webhook.
func (s *Sim) BaseURL(root string) string {
	root = strings.TrimRight(root, "/")
	if s.kind == Webhook {
		return root + WebhookPath
	}
	return root
}

// SetMode changes how the next sends are answered.
func (s *Sim) SetMode(m Mode) error {
	if m.Mode == "" {
		m.Mode = ModeOK
	}
	known := false
	for _, k := range Modes {
		known = known || k == m.Mode
	}
	if !known {
		return fmt.Errorf("wasim: unknown mode %q (want one of %s)", m.Mode, strings.Join(Modes, ", "))
	}
	if m.FailFirst < 0 || m.DelayMS < 0 {
		return fmt.Errorf("wasim: fail_first and delay_ms must not be negative")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
	s.failLeft = m.FailFirst
	return nil
}

// Messages are the messages accepted so far, in order.
func (s *Sim) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Duplicates counts accepted messages whose phone and text had been
// accepted before.
func (s *Sim) Duplicates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.messages {
		if m.Copy > 1 {
			n++
		}
	}
	return n
}

// Requests counts the send requests answered, whatever the answer.
func (s *Sim) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Reset forgets the messages and requests and answers ok again.
func (s *Sim) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode, s.failLeft, s.requests = Mode{Mode: ModeOK}, 0, 0
	s.messages, s.copies = nil, map[string]int{}
}

// ServeHTTP answers the kind's send endpoint and the control endpoints.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, ControlPath) {
		s.control(w, r)
		return
	}
	if r.URL.Path != s.sendPath() {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	// Credentials are checked first, as the real ones' middleware does.
	if !s.authorized(r) {
		s.take()
		s.answerFailure(w, ModeBadToken, Message{})
		return
	}
	in, err := s.read(r)
	if err != nil {
		s.refuseInput(w, err)
		return
	}
	mode, delay, numeric := s.take()
	if mode == ModeSlow {
		if delay == 0 {
			delay = 3 * time.Second
		}
		// Sent before the late answer: the caller who gave up may send
		// again.
		id := s.accept(in)
		s.wait(r.Context(), delay)
		s.answerOK(w, in, id, numeric)
		return
	}
	s.wait(r.Context(), delay)
	if mode == ModeOK {
		s.answerOK(w, in, s.accept(in), numeric)
		return
	}
	s.answerFailure(w, mode, in)
}

func (s *Sim) sendPath() string {
	switch s.kind {
	case Fonnte:
		return FonntePath
	case Wablas:
		return WablasPath
	case Gowa:
		return GowaPath
	}
	return WebhookPath
}

// take counts a request and returns the mode it gets.
func (s *Sim) take() (mode string, delay time.Duration, numeric bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	mode = s.mode.Mode
	if s.mode.FailFirst > 0 {
		if s.failLeft > 0 {
			s.failLeft--
		} else {
			mode = ModeOK
		}
	}
	return mode, time.Duration(s.mode.DelayMS) * time.Millisecond, s.mode.NumericIDs
}

func (s *Sim) wait(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// accept records m and returns its id.
func (s *Sim) accept(m Message) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	m.ID = fmt.Sprint(s.nextID)
	if s.kind == Gowa {
		m.ID = fmt.Sprintf("3EB0%016X", s.nextID)
	}
	m.At = time.Now()
	key := m.Phone + "\x00" + m.Text
	s.copies[key]++
	m.Copy = s.copies[key]
	s.messages = append(s.messages, m)
	return m.ID
}

// inputError is a request the real gateway refuses for its content.
type inputError struct{ field string }

func (e inputError) Error() string { return e.field + " is required" }

// read takes the recipient and text from the request in the kind's shape.
func (s *Sim) read(r *http.Request) (Message, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return Message{}, err
	}
	switch s.kind {
	case Fonnte, Wablas:
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		var v url.Values
		if ct == "application/json" {
			var j map[string]any
			_ = json.Unmarshal(body, &j)
			v = url.Values{}
			for k, x := range j {
				v.Set(k, fmt.Sprint(x))
			}
		} else {
			v, _ = url.ParseQuery(string(body))
		}
		phoneField := "target"
		if s.kind == Wablas {
			phoneField = "phone"
		}
		m := Message{Phone: v.Get(phoneField), Text: v.Get("message")}
		if m.Phone == "" {
			return m, inputError{phoneField}
		}
		return m, nil
	case Gowa:
		var j struct{ Phone, Message string }
		if err := json.Unmarshal(body, &j); err != nil {
			return Message{}, inputError{"phone"}
		}
		if j.Phone == "" {
			return Message{}, inputError{"phone"}
		}
		if j.Message == "" {
			return Message{}, inputError{"message"}
		}
		return Message{Phone: strings.TrimSuffix(j.Phone, "@s.whatsapp.net"), Text: j.Message}, nil
	}
	// The webhook: any JSON; phone and message read from the usual names.
	var j map[string]any
	if err := json.Unmarshal(body, &j); err != nil {
		return Message{}, inputError{"a JSON body"}
	}
	pick := func(names ...string) string {
		for _, n := range names {
			if v, ok := j[n].(string); ok {
				return v
			}
		}
		return ""
	}
	return Message{
		Phone:       pick("phone", "to", "target", "number"),
		Text:        pick("message", "text", "body"),
		StudentName: pick("student_name", "name"),
	}, nil
}

func (s *Sim) authorized(r *http.Request) bool {
	same := func(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
	switch s.kind {
	case Fonnte:
		return s.Token == "" || same(r.Header.Get("Authorization"), s.Token)
	case Wablas:
		// The token alone, or token.secret_key.
		got := r.Header.Get("Authorization")
		tok, _, _ := strings.Cut(got, ".")
		return s.Token == "" || same(got, s.Token) || same(tok, s.Token)
	case Gowa:
		if s.Username == "" && s.Password == "" {
			return true
		}
		u, p, ok := r.BasicAuth()
		return ok && same(u, s.Username) && same(p, s.Password)
	}
	if s.Token != "" {
		return same(r.Header.Get("Authorization"), "Bearer "+s.Token)
	}
	if s.Username != "" || s.Password != "" {
		u, p, ok := r.BasicAuth()
		return ok && same(u, s.Username) && same(p, s.Password)
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// answerOK is each kind's success answer.
func (s *Sim) answerOK(w http.ResponseWriter, m Message, id string, numeric bool) {
	switch s.kind {
	case Fonnte:
		var ids any = []string{id}
		if numeric {
			var n json.Number = json.Number(id)
			ids = []json.Number{n}
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"detail": "success! message in queue", "id": ids, "process": "pending",
			"requestid": 3799937, "status": true, "target": []string{m.Phone},
		})
	case Wablas:
		writeJSON(w, http.StatusOK, map[string]any{
			"status": true, "message": "Message is pending and waiting to be processed",
			"data": map[string]any{"messages": []map[string]string{{"id": id, "phone": m.Phone, "message": m.Text, "status": "pending"}}},
		})
	case Gowa:
		jid := m.Phone + "@s.whatsapp.net"
		status := fmt.Sprintf("Message sent to %s (server timestamp: %s)", jid, time.Now().UTC().Format("2006-01-02 15:04:05 -0700 MST"))
		writeJSON(w, http.StatusOK, map[string]any{
			"code": "SUCCESS", "message": status,
			"results": map[string]string{"message_id": id, "status": status},
		})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "status": "queued"})
	}
}

// answerFailure is each kind's answer for a failing mode.
func (s *Sim) answerFailure(w http.ResponseWriter, mode string, m Message) {
	refuse := func(reason string) { // Fonnte and Wablas refuse with HTTP 200
		if s.kind == Fonnte {
			writeJSON(w, http.StatusOK, map[string]any{"reason": reason, "status": false})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"status": false, "message": reason})
	}
	gowaError := func(status int, code, message string) {
		writeJSON(w, status, map[string]any{"code": code, "message": message, "results": nil})
	}
	hosted := s.kind == Fonnte || s.kind == Wablas
	switch mode {
	case ModeFail200:
		switch s.kind {
		case Fonnte:
			refuse("request invalid on disconnected device")
		case Wablas:
			refuse("device disconnected, need to scan qr code again")
		case Gowa:
			gowaError(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "websocket not connected")
		default:
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "upstream refused"})
		}
	case ModeBadToken:
		switch s.kind {
		case Fonnte:
			refuse("invalid token")
		case Wablas:
			refuse("token invalid")
		case Gowa:
			// Fiber's basic-auth middleware: plain text, no JSON.
			w.Header().Set("WWW-Authenticate", `Basic realm="Restricted"`)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, "Unauthorized")
		default:
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized"})
		}
	case ModeNotOnWhatsApp:
		switch s.kind {
		case Fonnte:
			refuse("target invalid")
		case Wablas:
			refuse("phone number " + m.Phone + " is not registered on whatsapp")
		case Gowa:
			gowaError(http.StatusBadRequest, "INVALID_JID", "Phone "+m.Phone+"@s.whatsapp.net is not on whatsapp")
		default:
			writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": "number is not on WhatsApp"})
		}
	case ModeRateLimit:
		if s.kind == Gowa {
			gowaError(http.StatusTooManyRequests, "WA_REACHOUT_TIMELOCK",
				"WhatsApp rejected this send with error 463 (reach-out timelock). This is WhatsApp's server-side anti-spam restriction on starting new chats and cannot be bypassed by the API.")
			return
		}
		w.Header().Set("Retry-After", "60")
		if hosted {
			body := map[string]any{"status": false, "message": "too many requests, rate limit exceeded"}
			if s.kind == Fonnte {
				body = map[string]any{"status": false, "reason": "rate limit exceeded, too many requests"}
			}
			writeJSON(w, http.StatusTooManyRequests, body)
			return
		}
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": "too many requests"})
	case ModeServerError:
		if s.kind == Gowa {
			gowaError(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Whatsapp client is not initialized")
			return
		}
		// A hosted gateway's front proxy when the application behind it is down.
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n")
	}
}

// refuseInput answers a request without a recipient the kind's way.
func (s *Sim) refuseInput(w http.ResponseWriter, err error) {
	switch s.kind {
	case Fonnte:
		writeJSON(w, http.StatusOK, map[string]any{"reason": "input invalid", "status": false})
	case Wablas:
		writeJSON(w, http.StatusOK, map[string]any{"status": false, "message": err.Error()})
	case Gowa:
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": "VALIDATION_ERROR", "message": err.Error(), "results": nil})
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
	}
}

// control serves POST /_sim/mode, GET /_sim/messages and POST /_sim/reset
// for a simulator run as a separate process.
func (s *Sim) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == ControlPath+"mode" && r.Method == http.MethodPost:
		var m Mode
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&m); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "want {\"mode\",\"fail_first\",\"delay_ms\",\"numeric_ids\"}"})
			return
		}
		if err := s.SetMode(m); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, m)
	case r.URL.Path == ControlPath+"messages" && r.Method == http.MethodGet:
		msgs := s.Messages()
		if msgs == nil {
			msgs = []Message{}
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"kind": s.kind, "messages": msgs, "count": len(msgs), "duplicates": s.Duplicates(), "requests": s.Requests(),
		})
	case r.URL.Path == ControlPath+"reset" && r.Method == http.MethodPost:
		s.Reset()
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	default:
		http.NotFound(w, r)
	}
}
