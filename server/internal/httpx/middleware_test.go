package httpx

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"
)

func TestLoggingOneLinePerRequest(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	h := Logging(log)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if RequestID(r.Context()) == "" {
			t.Error("no request id in the context")
		}
		SetLogUser(r.Context(), "budi")
		w.WriteHeader(http.StatusTeapot)
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/x", nil))
	line := strings.TrimSpace(buf.String())
	id := rec.Header().Get("X-Request-Id")
	if strings.Count(line, "\n") != 0 || id == "" || !strings.Contains(line, "request_id="+id) ||
		!strings.Contains(line, "user=budi") || !strings.Contains(line, "status=418") {
		t.Fatalf("log line %q (id %q)", line, id)
	}
}

func TestDecodeJSONErrors(t *testing.T) {
	var v struct {
		N int `json:"n"`
	}
	for body, code := range map[string]string{
		``:          BadRequestCode,
		`{"n":`:     BadRequestCode,
		`{"n":"x"}`: BadRequestCode,
		`{"n":1}{}`: BadRequestCode,
		`[`:         BadRequestCode,
	} {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		err := DecodeJSON(r, &v)
		if err == nil {
			t.Errorf("%q: no error", body)
			continue
		}
		if c := errCode(err); c != code {
			t.Errorf("%q: code %q", body, c)
		}
	}
	r := httptest.NewRequest("POST", "/", strings.NewReader(`{"n":3,"extra":true}`))
	if err := DecodeJSON(r, &v); err != nil || v.N != 3 {
		t.Fatalf("valid body: %v %+v", err, v)
	}
}

// A client that sends its body a byte at a time is cut off at the route's
// read deadline with a 408, through the logging wrapper the server uses,
// and the handler is freed (issue 25: one byte a second held a sign-in 40 s).
func TestLimitBodySlowClient(t *testing.T) {
	done := make(chan error, 1)
	h := Logging(slog.New(slog.DiscardHandler))(LimitBody(1<<20, 8<<20,
		UploadLimit{Method: "POST", Path: "/slow", ReadTimeout: 300 * time.Millisecond})(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var v map[string]any
			err := DecodeJSON(r, &v)
			done <- err
			if err != nil {
				Error(w, r, err)
			}
		})))
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	go func() { // a byte every 100 ms: 4 s for the whole body
		for range 39 {
			time.Sleep(100 * time.Millisecond)
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	select {
	case err := <-done:
		if c := errCode(err); c != "timeout" {
			t.Fatalf("handler got %v (code %q), want the read deadline", err, c)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the handler was still reading after 3 s")
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// TestErrorLogRedacted: a database error that quotes a parameter (here a
// session token's hash) reaches the log without it.
func TestErrorLogRedacted(t *testing.T) {
	var buf bytes.Buffer
	old := Logger
	Logger = slog.New(slog.NewTextHandler(&buf, nil))
	defer func() { Logger = old }()
	err := fmt.Errorf("auth: session: %w", &pq.Error{Code: "22P02", Message: `invalid input syntax for type bigint: "\x5e4f1c9ad2b3"`})
	rec := httptest.NewRecorder()
	Error(rec, httptest.NewRequest("GET", "/api/v1/me", nil), err)
	if rec.Code != 500 || strings.Contains(buf.String(), "5e4f1c9ad2b3") || !strings.Contains(buf.String(), "22P02") {
		t.Fatalf("%d %s", rec.Code, buf.String())
	}
}
