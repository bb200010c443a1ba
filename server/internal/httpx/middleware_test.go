package httpx

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
