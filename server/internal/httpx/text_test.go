package httpx

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
)

func TestCleanHeader(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"Mozilla/5.0 (X11)", 100, "Mozilla/5.0 (X11)"},
		{"a\x00b\x01c\x7fd\u0085e", 100, "abcde"},
		{"a\tb\r\nc", 100, "a bc"},
		{"caf\xc3\xa9 \xff ok", 100, "café \uFFFD ok"},
		{strings.Repeat("é", 8), 11, "ééééé"}, // 10 bytes: cut at a character
		{"  spasi  ", 100, "spasi"},
		// A stored User-Agent cut at 300 bytes (sign-in).
		{strings.Repeat("a", 299) + "é", 300, strings.Repeat("a", 299)},
		{"abcé", 5, "abcé"},
		{"a\xffb", 300, "a\uFFFDb"},
		{"a\x00b", 300, "ab"},
		{strings.Repeat("a", 298) + "\xff", 300, strings.Repeat("a", 298)},
	} {
		if got := CleanHeader(c.in, c.max); got != c.want || !utf8.ValidString(got) || len(got) > c.max {
			t.Errorf("CleanHeader(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestHasNUL(t *testing.T) {
	for body, want := range map[string]bool{
		`{"a":"\u0000"}`:     true,
		`{"a":"x\\\u0000"}`:  true, // backslash, then NUL
		`{"a":"\\u0000"}`:    false,
		`{"a":"\\\\u0000"}`:  false,
		`{"\u0000":1}`:       true,
		`{"a":"\u00001"}`:    true,
		`{"a":"\u0001"}`:     false,
		`{"a":"plain text"}`: false,
	} {
		if got := hasNUL([]byte(body)); got != want {
			t.Errorf("%s: %v", body, got)
		}
	}
}

func TestIsJSON(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true, "APPLICATION/JSON": true,
		"application/problem+json": true, "application/+json": false, "text/plain; a=+json": false,
		"text/json": false, "application/jsonp": false, "application/json;;": false, "multipart/form-data; boundary=x+json": false,
	} {
		if got := isJSON(ct); got != want {
			t.Errorf("%q: %v", ct, got)
		}
	}
}

func TestPageParams(t *testing.T) {
	for q, want := range map[string]Paging{
		"": {1, 20}, "page=3&per_page=50": {3, 50}, "page=100000&per_page=100": {100000, 100}, "page=&per_page=": {1, 20},
	} {
		p, err := PageParams(httptest.NewRequest("GET", "/?"+q, nil))
		if err != nil || p != want {
			t.Errorf("%q: %+v %v", q, p, err)
		}
	}
	for q, field := range map[string]string{
		"page=9223372036854775807": "page", "page=99999999999999999999": "page", "page=100001": "page", "page=0": "page",
		"page=dua": "page", "page=1.5": "page", "per_page=101": "per_page", "per_page=-5": "per_page",
	} {
		_, err := PageParams(httptest.NewRequest("GET", "/?"+q, nil))
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.Invalid || e.Fields[field].Key != "request.field_range" {
			t.Errorf("%q: %v", q, err)
		}
	}
}

func TestClientAddr(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.9:5555"
	for xff, want := range map[string]string{
		"":                         "10.0.0.9",
		"203.0.113.7, 10.0.0.1":    "203.0.113.7",
		" 2001:db8::1 ":            "2001:db8::1",
		"bukan-alamat, 10.0.0.1":   "10.0.0.9",
		"203.0.113.7\x00; DROP --": "10.0.0.9",
	} {
		r.Header.Set("X-Forwarded-For", xff)
		if got := ClientAddr(r, true); got != want {
			t.Errorf("%q: %q, want %q", xff, got, want)
		}
	}
	r.Header.Set("X-Forwarded-For", "203.0.113.7")
	if got := ClientAddr(r, false); got != "10.0.0.9" {
		t.Errorf("untrusted proxy: %q", got)
	}
}

// endless is a body of unknown length far over any limit (8 MiB); it
// counts what was read from it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n >= 8<<20 {
		return 0, io.EOF
	}
	for i := range p {
		p[i] = ' '
	}
	if e.n == 0 && len(p) > 0 {
		p[0] = '['
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestLimitBodyChunked: a body without a Content-Length stops at the limit
// whatever its type: JSON is 413 after at most the limit was read.
func TestLimitBodyChunked(t *testing.T) {
	const limit = 64 << 10
	for _, ct := range []string{"application/json", "", "text/plain", "multipart/form-data; boundary=x"} {
		src := &endless{}
		var decoded error
		h := LimitBody(limit, 2*limit)(HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
			if ct == "application/json" {
				var v any
				decoded = DecodeJSON(r, &v)
				return decoded
			}
			_, err := io.Copy(io.Discard, r.Body)
			decoded = err
			return nil
		}))
		r := httptest.NewRequest("POST", "/", io.NopCloser(src))
		r.ContentLength = -1
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		max := int64(limit)
		if strings.HasPrefix(ct, "multipart/") {
			max = 2 * limit
		}
		if src.n > max+32<<10 {
			t.Errorf("%q: read %d bytes of a body limited to %d", ct, src.n, max)
		}
		if decoded == nil {
			t.Errorf("%q: the handler read past the limit without an error", ct)
		}
		if ct == "application/json" && rec.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("%q: %d, want 413", ct, rec.Code)
		}
	}
}
