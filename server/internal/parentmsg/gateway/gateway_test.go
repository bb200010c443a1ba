package gateway_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/parentmsg/gateway"
	"github.com/tatib/tatib/server/internal/sim/wa"
)

const (
	phone    = "6281234567890"
	token    = "sim-token-123"
	user     = "admin"
	password = "rahasia-sekali"
)

// A message with what breaks naive encodings: quotes, a newline, a
// backslash, HTML characters and non-ASCII.
var message = gateway.Message{
	Phone:       phone,
	Text:        "Yth. Bapak/Ibu, ananda \"Budi\" <XI-2> & kawan\nmelanggar: terlambat \\ 5 poin — terima kasih 🙏",
	StudentName: "Budi \"Santoso\"",
}

var kinds = []string{wasim.Fonnte, wasim.Wablas, wasim.Gowa, wasim.Webhook}

// start serves a simulator of kind with the house credentials and returns
// it with a gateway pointed at it.
func start(t *testing.T, kind string, mutate func(*gateway.Config)) (*wasim.Sim, gateway.Gateway) {
	t.Helper()
	sim := wasim.New(kind)
	sim.Token = token
	if kind == wasim.Gowa {
		sim.Token = ""
		sim.Username, sim.Password = user, password
	}
	base := sim.Start()
	t.Cleanup(sim.Close)
	c := gateway.Config{Kind: kind, BaseURL: base, Token: token, Timeout: 5 * time.Second,
		WebhookBody: `{"to":"{phone}","text":"{message}","name":"{student_name}","source":"tatib"}`}
	if kind == wasim.Gowa {
		c.Token = ""
		c.Username, c.Password = user, password
	}
	if mutate != nil {
		mutate(&c)
	}
	g, err := gateway.New(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sim, g
}

func setMode(t *testing.T, sim *wasim.Sim, m wasim.Mode) {
	t.Helper()
	if err := sim.SetMode(m); err != nil {
		t.Fatal(err)
	}
}

func want(t *testing.T, r gateway.Result, outcome gateway.Outcome, reason string, status int) {
	t.Helper()
	if r.Outcome != outcome || r.Reason != reason || r.HTTPStatus != status {
		t.Errorf("got %s/%s HTTP %d, want %s/%s HTTP %d (answer %q)", r.Outcome, r.Reason, r.HTTPStatus, outcome, reason, status, r.Answer)
	}
	if r.Answer == "" {
		t.Error("no answer kept")
	}
	if r.Duration <= 0 {
		t.Error("no duration")
	}
	for _, secret := range []string{token, password} {
		if strings.Contains(r.Answer, secret) {
			t.Errorf("answer carries a secret: %q", r.Answer)
		}
	}
}

func TestSendOK(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			sim, g := start(t, kind, nil)
			r := g.Send(context.Background(), message)
			want(t, r, gateway.Sent, "ok", 200)
			msgs := sim.Messages()
			if len(msgs) != 1 {
				t.Fatalf("simulator accepted %d messages", len(msgs))
			}
			if msgs[0].Phone != phone || msgs[0].Text != message.Text {
				t.Errorf("simulator got %q %q", msgs[0].Phone, msgs[0].Text)
			}
			if r.MessageID == "" || r.MessageID != msgs[0].ID {
				t.Errorf("message id %q, simulator gave %q", r.MessageID, msgs[0].ID)
			}
			if kind == wasim.Webhook && msgs[0].StudentName != message.StudentName {
				t.Errorf("student name %q", msgs[0].StudentName)
			}
		})
	}
}

// Fonnte's ids come as strings or as numbers; both are kept as text.
func TestFonnteNumericID(t *testing.T) {
	sim, g := start(t, wasim.Fonnte, nil)
	setMode(t, sim, wasim.Mode{Mode: wasim.ModeOK, NumericIDs: true})
	r := g.Send(context.Background(), message)
	want(t, r, gateway.Sent, "ok", 200)
	if !strings.Contains(r.Answer, `"id":[`+r.MessageID+`]`) {
		t.Errorf("answer %q does not carry the id %s as a number", r.Answer, r.MessageID)
	}
	if r.MessageID != sim.Messages()[0].ID {
		t.Errorf("id %q", r.MessageID)
	}
}

func TestSendFailures(t *testing.T) {
	type expect struct {
		outcome gateway.Outcome
		reason  string
		status  int
	}
	cases := []struct {
		mode string
		want map[string]expect
	}{
		// Fonnte and Wablas refuse with HTTP 200: the WhatsApp phone
		// dropped off, which passes once it is linked again.
		{wasim.ModeFail200, map[string]expect{
			wasim.Fonnte:  {gateway.Temporary, "unreachable", 200},
			wasim.Wablas:  {gateway.Temporary, "unreachable", 200},
			wasim.Gowa:    {gateway.Temporary, "server_error", 500},
			wasim.Webhook: {gateway.Temporary, "server_error", 500},
		}},
		{wasim.ModeBadToken, map[string]expect{
			wasim.Fonnte:  {gateway.Permanent, "bad_token", 200},
			wasim.Wablas:  {gateway.Permanent, "bad_token", 200},
			wasim.Gowa:    {gateway.Permanent, "bad_token", 401},
			wasim.Webhook: {gateway.Permanent, "bad_token", 401},
		}},
		{wasim.ModeNotOnWhatsApp, map[string]expect{
			wasim.Fonnte:  {gateway.Permanent, "invalid_number", 200},
			wasim.Wablas:  {gateway.Permanent, "not_on_whatsapp", 200},
			wasim.Gowa:    {gateway.Permanent, "not_on_whatsapp", 400},
			wasim.Webhook: {gateway.Permanent, "rejected", 422},
		}},
		{wasim.ModeRateLimit, map[string]expect{
			wasim.Fonnte:  {gateway.RateLimited, "rate_limited", 429},
			wasim.Wablas:  {gateway.RateLimited, "rate_limited", 429},
			wasim.Gowa:    {gateway.RateLimited, "rate_limited", 429},
			wasim.Webhook: {gateway.RateLimited, "rate_limited", 429},
		}},
		{wasim.ModeServerError, map[string]expect{
			wasim.Fonnte:  {gateway.Temporary, "server_error", 502},
			wasim.Wablas:  {gateway.Temporary, "server_error", 502},
			wasim.Gowa:    {gateway.Temporary, "server_error", 500},
			wasim.Webhook: {gateway.Temporary, "server_error", 502},
		}},
	}
	for _, c := range cases {
		for _, kind := range kinds {
			t.Run(c.mode+"/"+kind, func(t *testing.T) {
				sim, g := start(t, kind, nil)
				setMode(t, sim, wasim.Mode{Mode: c.mode})
				r := g.Send(context.Background(), message)
				e := c.want[kind]
				want(t, r, e.outcome, e.reason, e.status)
				if r.MessageID != "" {
					t.Errorf("message id %q on a failure", r.MessageID)
				}
				if len(sim.Messages()) != 0 {
					t.Error("the simulator accepted a failed message")
				}
				// The gateway's own wait is kept; go-whatsapp-web-multidevice
				// gives none.
				if c.mode == wasim.ModeRateLimit {
					wantWait := time.Minute
					if kind == wasim.Gowa {
						wantWait = 0
					}
					if r.RetryAfter != wantWait {
						t.Errorf("retry after %v, want %v", r.RetryAfter, wantWait)
					}
				}
			})
		}
	}
}

// A wrong token sent by Tatib gets the gateway's real bad-token answer.
func TestWrongCredentials(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			sim, g := start(t, kind, func(c *gateway.Config) { c.Token, c.Password = c.Token+"x", c.Password+"x" })
			r := g.Send(context.Background(), message)
			if r.Outcome != gateway.Permanent || r.Reason != "bad_token" {
				t.Errorf("got %s/%s (%q)", r.Outcome, r.Reason, r.Answer)
			}
			if len(sim.Messages()) != 0 {
				t.Error("accepted with a wrong token")
			}
		})
	}
	// Wablas takes "<token>.<secret_key>" as well as the token alone.
	sim, g := start(t, wasim.Wablas, func(c *gateway.Config) { c.Token += ".secretkey" })
	if r := g.Send(context.Background(), message); r.Outcome != gateway.Sent || len(sim.Messages()) != 1 {
		t.Errorf("token.secret refused: %s %q", r.Outcome, r.Answer)
	}
}

// An answer slower than the timeout is a temporary failure with no HTTP
// status, returned at the timeout, not when the gateway answers.
func TestSlowAnswerTimesOut(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			sim, g := start(t, kind, func(c *gateway.Config) { c.Timeout = 200 * time.Millisecond })
			setMode(t, sim, wasim.Mode{Mode: wasim.ModeSlow, DelayMS: 3000})
			r := g.Send(context.Background(), message)
			want(t, r, gateway.Temporary, "timeout", 0)
			if r.Duration > 2*time.Second {
				t.Errorf("waited %v past a 200ms timeout", r.Duration)
			}
			// The slow gateway still sent it: a retry would be a duplicate,
			// which the simulator counts.
			setMode(t, sim, wasim.Mode{Mode: wasim.ModeOK})
			if r := g.Send(context.Background(), message); r.Outcome != gateway.Sent {
				t.Fatalf("retry: %s", r.Outcome)
			}
			if sim.Duplicates() != 1 {
				t.Errorf("%d duplicates, want 1", sim.Duplicates())
			}
		})
	}
}

// The caller's own deadline bounds the send as well.
func TestContextDeadline(t *testing.T) {
	sim, g := start(t, wasim.Fonnte, nil)
	setMode(t, sim, wasim.Mode{Mode: wasim.ModeSlow, DelayMS: 3000})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r := g.Send(ctx, message)
	want(t, r, gateway.Temporary, "timeout", 0)
}

func TestNotListening(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			g, err := gateway.New(gateway.Config{Kind: kind, BaseURL: "http://" + addr + "/hook?key=" + token, Token: token, Timeout: 2 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := g.Send(context.Background(), message)
			want(t, r, gateway.Temporary, "unreachable", 0)
			if strings.Contains(r.Answer, "key=") {
				t.Errorf("answer carries the address: %q", r.Answer)
			}
		})
	}
}

// An outage, then recovery: the first sends fail, the next succeeds.
func TestFailFirstThenOK(t *testing.T) {
	sim, g := start(t, wasim.Fonnte, nil)
	setMode(t, sim, wasim.Mode{Mode: wasim.ModeServerError, FailFirst: 2})
	var got []gateway.Outcome
	for range 3 {
		got = append(got, g.Send(context.Background(), message).Outcome)
	}
	if got[0] != gateway.Temporary || got[1] != gateway.Temporary || got[2] != gateway.Sent {
		t.Errorf("outcomes %v", got)
	}
	if sim.Requests() != 3 || len(sim.Messages()) != 1 || sim.Duplicates() != 0 {
		t.Errorf("%d requests, %d messages, %d duplicates", sim.Requests(), len(sim.Messages()), sim.Duplicates())
	}
}

// answering is a gateway that answers status and body to every request
// and records what it got.
func answering(t *testing.T, status int, body string, header map[string]string) (*httptest.Server, *atomic.Value) {
	t.Helper()
	var got atomic.Value
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization"))
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(s.Close)
	return s, &got
}

func send(t *testing.T, kind, base string) gateway.Result {
	t.Helper()
	g, err := gateway.New(gateway.Config{Kind: kind, BaseURL: base, Token: token, Username: user, Password: password, Timeout: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g.Send(context.Background(), message)
}

// A runaway body is read only so far and kept at MaxAnswer bytes of valid
// UTF-8.
func TestHugeBodyIsCapped(t *testing.T) {
	huge := strings.Repeat("é", 3<<20) + "\xff"
	s, _ := answering(t, 500, "\xff\xfe"+huge, nil)
	r := send(t, wasim.Fonnte, s.URL)
	if r.Outcome != gateway.Temporary || r.HTTPStatus != 500 {
		t.Errorf("got %s HTTP %d", r.Outcome, r.HTTPStatus)
	}
	if len(r.Answer) > gateway.MaxAnswer || len(r.Answer) < gateway.MaxAnswer-4 {
		t.Errorf("answer of %d bytes", len(r.Answer))
	}
	if !utf8.ValidString(r.Answer) || !strings.HasPrefix(r.Answer, "\uFFFD") {
		t.Errorf("answer not cleaned: %q…", r.Answer[:12])
	}
}

// A gateway that echoes the credentials never gets them into the answer.
func TestSecretsRedacted(t *testing.T) {
	s, _ := answering(t, 200, `{"status":false,"reason":"token `+token+` / `+password+` invalid"}`, nil)
	r := send(t, wasim.Fonnte, s.URL)
	if strings.Contains(r.Answer, token) || strings.Contains(r.Answer, password) || !strings.Contains(r.Answer, "***") {
		t.Errorf("answer %q", r.Answer)
	}
	if r.Reason != "bad_token" {
		t.Errorf("reason %q", r.Reason)
	}
}

// A redirect is not followed: the token never reaches another host, and
// the school sees the 3xx as a refusal.
func TestRedirectNotFollowed(t *testing.T) {
	other, got := answering(t, 200, `{"status":true,"id":["1"]}`, nil)
	s, _ := answering(t, http.StatusFound, "", map[string]string{"Location": other.URL + "/send"})
	r := send(t, wasim.Fonnte, s.URL)
	if r.Outcome != gateway.Permanent || r.HTTPStatus != http.StatusFound || r.Reason != "rejected" {
		t.Errorf("got %s/%s HTTP %d", r.Outcome, r.Reason, r.HTTPStatus)
	}
	if got.Load() != nil {
		t.Errorf("the other host got a request with %q", got.Load())
	}
}

// A 2xx the gateway does not document is not taken as sent.
func TestUnreadableOKAnswer(t *testing.T) {
	for _, kind := range []string{wasim.Fonnte, wasim.Wablas, wasim.Gowa} {
		s, _ := answering(t, 200, "<html>captive portal</html>", nil)
		r := send(t, kind, s.URL)
		if r.Outcome != gateway.Temporary || r.Reason != "bad_answer" {
			t.Errorf("%s: got %s/%s", kind, r.Outcome, r.Reason)
		}
	}
	// The webhook takes any 2xx, with or without an id.
	s, _ := answering(t, 204, "", nil)
	if r := send(t, wasim.Webhook, s.URL); r.Outcome != gateway.Sent || r.MessageID != "" {
		t.Errorf("webhook 204: %s %q", r.Outcome, r.MessageID)
	}
	s, _ = answering(t, 201, `{"message_id":42}`, nil)
	if r := send(t, wasim.Webhook, s.URL); r.Outcome != gateway.Sent || r.MessageID != "42" {
		t.Errorf("webhook message_id: %s %q", r.Outcome, r.MessageID)
	}
}

// go-whatsapp-web-multidevice answers 401 in JSON when its WhatsApp session
// is logged out (the password was right): that passes once it is linked.
func TestGowaLoggedOut(t *testing.T) {
	s, auth := answering(t, 401, `{"code":"AUTHENTICATION_ERROR","message":"you are not logged in","results":null}`, nil)
	r := send(t, wasim.Gowa, s.URL)
	if r.Outcome != gateway.Temporary || r.Reason != "unreachable" {
		t.Errorf("got %s/%s", r.Outcome, r.Reason)
	}
	if a, _ := auth.Load().(string); !strings.HasPrefix(a, "Basic ") {
		t.Errorf("authorization %q", a)
	}
}

// Fonnte's other refusals, as its users report them.
func TestFonnteReasons(t *testing.T) {
	cases := map[string]struct {
		outcome gateway.Outcome
		reason  string
	}{
		"invalid token":                          {gateway.Permanent, "bad_token"},
		"token invalid":                          {gateway.Permanent, "bad_token"},
		"unknown user":                           {gateway.Permanent, "bad_token"},
		"request invalid on disconnected device": {gateway.Temporary, "unreachable"},
		"insufficient quota":                     {gateway.RateLimited, "rate_limited"},
		"target invalid":                         {gateway.Permanent, "invalid_number"},
		"input invalid":                          {gateway.Permanent, "rejected"},
		"devices must belong to an account":      {gateway.Permanent, "rejected"},
	}
	for reason, w := range cases {
		body, _ := json.Marshal(map[string]any{"status": false, "reason": reason})
		s, _ := answering(t, 200, string(body), nil)
		r := send(t, wasim.Fonnte, s.URL)
		if r.Outcome != w.outcome || r.Reason != w.reason {
			t.Errorf("%q: got %s/%s, want %s/%s", reason, r.Outcome, r.Reason, w.outcome, w.reason)
		}
	}
}

// Wablas' answers with several devices put the messages elsewhere.
func TestWablasShapes(t *testing.T) {
	for body, id := range map[string]string{
		`{"status":true,"message":"x","data":{"device_id":"A5DOYJ","quota":97,"message":[{"id":"a843","phone":"628","status":"pending"}]}}`: "a843",
		`{"status":true,"message":"x","data":[{"device_id":"A5DOYJ","messages":{"id":"5be4","phone":"628"}}]}`:                              "5be4",
		`{"status":true,"message":"Message is pending and waiting to be processed"}`:                                                        "",
	} {
		s, _ := answering(t, 200, body, nil)
		if r := send(t, wasim.Wablas, s.URL); r.Outcome != gateway.Sent || r.MessageID != id {
			t.Errorf("%s: got %s %q, want id %q", body, r.Outcome, r.MessageID, id)
		}
	}
}

// The webhook's body template stays valid JSON whatever the message holds.
func TestWebhookBody(t *testing.T) {
	body := gateway.WebhookBody(`{"to":"{phone}","text":"{message}","meta":{"student":"{student_name}"}}`, message)
	var got struct {
		To, Text string
		Meta     struct{ Student string }
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if got.To != phone || got.Text != message.Text || got.Meta.Student != message.StudentName {
		t.Errorf("got %+v", got)
	}
	if !strings.Contains(body, "<XI-2> &") {
		t.Errorf("HTML characters escaped needlessly: %s", body)
	}
	// No template: phone and message.
	if b := gateway.WebhookBody("", message); !json.Valid([]byte(b)) || !strings.Contains(b, `"phone":"`+phone) {
		t.Errorf("default body %s", b)
	}
	// A template that is not JSON is refused without sending.
	s, auth := answering(t, 200, `{}`, nil)
	g, _ := gateway.New(gateway.Config{Kind: "webhook", BaseURL: s.URL, WebhookBody: `{"text": {message}}`}, nil)
	if r := g.Send(context.Background(), message); r.Outcome != gateway.Permanent || r.Reason != "rejected" || auth.Load() != nil {
		t.Errorf("bad template: %s/%s", r.Outcome, r.Reason)
	}
}

func TestNewChecksConfig(t *testing.T) {
	for _, c := range []gateway.Config{
		{Kind: "fonnte", BaseURL: ""},
		{Kind: "fonnte", BaseURL: "ftp://api.fonnte.com"},
		{Kind: "fonnte", BaseURL: "api.fonnte.com"},
		{Kind: "telegram", BaseURL: "https://api.telegram.org"},
	} {
		if _, err := gateway.New(c, nil); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	// The whole send address works as well as the base.
	for _, kind := range []string{wasim.Fonnte, wasim.Wablas, wasim.Gowa} {
		sim := wasim.New(kind)
		url := sim.Start()
		full := map[string]string{wasim.Fonnte: wasim.FonntePath, wasim.Wablas: wasim.WablasPath, wasim.Gowa: wasim.GowaPath}[kind]
		g, err := gateway.New(gateway.Config{Kind: kind, BaseURL: url + full + "/"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := g.Send(context.Background(), message); r.Outcome != gateway.Sent {
			t.Errorf("%s with the full address: %s %q", kind, r.Outcome, r.Answer)
		}
		sim.Close()
	}
}

// A refusal in a 4xx with Fonnte's or Wablas' body is read for its reason.
func TestRefusalIn4xx(t *testing.T) {
	s, _ := answering(t, 422, `{"status":false,"reason":"Invalid target"}`, nil)
	if r := send(t, wasim.Fonnte, s.URL); r.Outcome != gateway.Permanent || r.Reason != "invalid_number" || r.HTTPStatus != 422 {
		t.Errorf("fonnte 422: %s/%s HTTP %d", r.Outcome, r.Reason, r.HTTPStatus)
	}
	s, _ = answering(t, 400, `{"status":false,"message":"device disconnected, need to scan qr code again"}`, nil)
	if r := send(t, wasim.Wablas, s.URL); r.Outcome != gateway.Temporary || r.Reason != "unreachable" {
		t.Errorf("wablas 400: %s/%s", r.Outcome, r.Reason)
	}
	// 401 stays a bad token whatever the body says.
	s, _ = answering(t, 401, `{"status":false,"message":"device disconnected"}`, nil)
	if r := send(t, wasim.Wablas, s.URL); r.Outcome != gateway.Permanent || r.Reason != "bad_token" {
		t.Errorf("wablas 401: %s/%s", r.Outcome, r.Reason)
	}
}

// The base URL's query is kept: go-whatsapp-web-multidevice chooses one of
// several WhatsApp accounts by ?device_id=.
func TestBaseURLQueryKept(t *testing.T) {
	var got string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path + "?" + r.URL.RawQuery
		_, _ = w.Write([]byte(`{"code":"SUCCESS","message":"ok","results":{"message_id":"3EB0"}}`))
	}))
	defer s.Close()
	if r := send(t, wasim.Gowa, s.URL+"/?device_id=sekolah"); r.Outcome != gateway.Sent || r.MessageID != "3EB0" {
		t.Errorf("got %s %q", r.Outcome, r.MessageID)
	}
	if got != "/send/message?device_id=sekolah" {
		t.Errorf("requested %q", got)
	}
}
