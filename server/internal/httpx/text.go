package httpx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
)

// Text from outside is checked once, here, so feature code never sees bytes
// PostgreSQL refuses as text (invalid UTF-8, NUL) or control characters no
// person typed.

// badText reports whether s is not valid UTF-8 or holds a control character
// other than tab, newline and carriage return.
func badText(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, c := range s {
		if unicode.IsControl(c) && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return false
}

// CleanText refuses a request whose path or query parameters (names or
// values) hold bad text: Invalid, with a field error naming the parameter
// ("path" for the path).
func CleanText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := apperr.Fields{}
		if badText(r.URL.Path) {
			f.Add("path", "request.field_bad_text")
		}
		q := r.URL.Query()
		names := make([]string, 0, len(q))
		for k := range q {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			bad := badText(k)
			for _, v := range q[k] {
				bad = bad || badText(v)
			}
			if bad {
				f.Add(CleanHeader(k, 100), "request.field_bad_text")
			}
		}
		if len(f) > 0 {
			Error(w, r, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("request.bad_text"), Fields: f})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// CleanHeader makes header text (a User-Agent, a file name) safe to store
// and show: invalid UTF-8 becomes U+FFFD, tabs become spaces, other control
// characters are dropped, and the result is cut at a character boundary to
// at most max bytes.
func CleanHeader(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '\t':
			c = ' '
		case unicode.IsControl(c):
			continue
		}
		if b.Len()+utf8.RuneLen(c) > max {
			break
		}
		b.WriteRune(c)
	}
	return strings.TrimSpace(b.String())
}

// hasNUL reports whether JSON text holds the escape \u0000 (an escaped
// backslash followed by "u0000" is text, not NUL). A raw NUL byte is a
// syntax error the decoder reports itself.
func hasNUL(body []byte) bool {
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte(`\u0000`))
		if j < 0 {
			return false
		}
		j += i
		slashes := 0
		for k := j; k >= 0 && body[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 1 {
			return true
		}
		i = j + 1
	}
}

// nulError names the first field (a JSON path such as "students[2].name")
// whose text holds NUL.
func nulError(body []byte) error {
	e := apperr.New(apperr.Invalid, "request.json_nul")
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if path, ok := nulPath(v, ""); ok {
			if path == "" {
				path = "body"
			}
			e.WithField(path, "request.field_nul")
		}
	}
	return e
}

func nulPath(v any, path string) (string, bool) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch v := v.(type) {
	case string:
		return path, strings.ContainsRune(v, 0)
	case []any:
		for i, x := range v {
			if p, ok := nulPath(x, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.ContainsRune(k, 0) {
				return join(CleanHeader(k, 100)), true
			}
			if p, ok := nulPath(v[k], join(k)); ok {
				return p, true
			}
		}
	}
	return "", false
}
