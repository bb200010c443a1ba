// Package locale renders people's messages in the language of the request
// from one catalogue. A message is a stable key with named parameters
// ({name} in the text); feature code never writes the sentence itself.
//
// The catalogue lives in messages/<area>.<lang>.json, one pair of files per
// feature area so that areas never edit the same file. Every key must exist
// in every language (a test checks it).
//
// A message whose words depend on a number is an object instead of a
// string: {"by": "minutes", "one": "… {minutes} minute.", "other": "… {minutes}
// minutes."}. "by" names the parameter; "one" is used when it is 1, "other"
// otherwise. Indonesian nouns do not change with the number, so its entries
// are plain strings (a test checks that English has both forms wherever a
// count is followed by a countable noun).
package locale

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Key is a catalogue key used as a parameter: it is rendered in the same
// language (a thing's name inside a sentence, say "entity.student").
type Key string

// Texts is a parameter that already exists in each language (a
// permission's label from its own catalogue, say).
type Texts map[Lang]string

// Lang is a language Tatib speaks.
type Lang string

// The languages, Indonesian first: it is the default.
const (
	ID Lang = "id"
	EN Lang = "en"
)

// Languages lists every supported language, the default first.
var Languages = []Lang{ID, EN}

//go:embed messages/*.json
var files embed.FS

// catalog holds every message's text ("other" for a plural one);
// plurals the "one" form and its parameter.
var catalog, plurals = mustLoad(files)

// plural is the singular form of a message and the parameter that chooses it.
type plural struct {
	One string `json:"one"`
	By  string `json:"by"`
}

func mustLoad(fsys fs.FS) (map[Lang]map[string]string, map[Lang]map[string]plural) {
	c, p, err := load(fsys)
	if err != nil {
		panic(err)
	}
	return c, p
}

// load reads every messages/<area>.<lang>.json; a key defined twice in one
// language is an error.
func load(fsys fs.FS) (map[Lang]map[string]string, map[Lang]map[string]plural, error) {
	c := map[Lang]map[string]string{}
	pl := map[Lang]map[string]plural{}
	for _, l := range Languages {
		c[l] = map[string]string{}
		pl[l] = map[string]plural{}
	}
	names, err := fs.Glob(fsys, "messages/*.json")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		base := strings.TrimSuffix(path.Base(name), ".json")
		dot := strings.LastIndexByte(base, '.')
		if dot < 0 {
			return nil, nil, fmt.Errorf("locale: %s: name must be <area>.<lang>.json", name)
		}
		lang := Lang(base[dot+1:])
		m, ok := c[lang]
		if !ok {
			return nil, nil, fmt.Errorf("locale: %s: unknown language %q", name, lang)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, nil, err
		}
		var entries map[string]json.RawMessage
		if err := json.Unmarshal(b, &entries); err != nil {
			return nil, nil, fmt.Errorf("locale: %s: %w", name, err)
		}
		for k, raw := range entries {
			if _, dup := m[k]; dup {
				return nil, nil, fmt.Errorf("locale: %s: key %q defined twice", name, k)
			}
			var text string
			if err := json.Unmarshal(raw, &text); err == nil {
				m[k] = text
				continue
			}
			var p struct {
				plural
				Other string `json:"other"`
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil || p.Other == "" || p.One == "" || p.By == "" {
				return nil, nil, fmt.Errorf("locale: %s: %q must be a string or {\"by\", \"one\", \"other\"}", name, k)
			}
			m[k] = p.Other
			pl[lang][k] = p.plural
		}
	}
	return c, pl, nil
}

// Has reports whether key is in the catalogue.
func Has(key string) bool {
	_, ok := catalog[ID][key]
	return ok
}

// Keys returns every key of lang's catalogue, sorted.
func Keys(lang Lang) []string {
	keys := make([]string, 0, len(catalog[lang]))
	for k := range catalog[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Render returns the message key in lang with its {parameters} filled in.
// A key the catalogue does not hold is returned as it is, so a sentence
// passed by mistake still reaches a person (the catalogue test finds it).
func Render(lang Lang, key string, params map[string]any) string {
	text, ok := catalog[lang][key]
	if !ok {
		if text, ok = catalog[ID][key]; !ok {
			text = key
		}
	}
	if p, ok := plurals[lang][key]; ok && isOne(params[p.By]) {
		text = p.One
	}
	if len(params) == 0 || !strings.Contains(text, "{") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			break
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			b.WriteString(text)
			break
		}
		name := text[i+1 : i+j]
		v, ok := params[name]
		b.WriteString(text[:i])
		if ok {
			b.WriteString(Format(lang, v))
		} else {
			b.WriteString(text[i : i+j+1])
		}
		text = text[i+j+1:]
	}
	return b.String()
}

// isOne reports whether a count parameter is exactly 1.
func isOne(v any) bool {
	switch n := v.(type) {
	case int:
		return n == 1
	case int64:
		return n == 1
	case int32:
		return n == 1
	case float64:
		return n == 1
	}
	return false
}

// Format writes a parameter the way lang writes it: integers with the
// language's thousands separator (1.200 in Indonesian, 1,200 in English).
func Format(lang Lang, v any) string {
	switch n := v.(type) {
	case int:
		return Number(lang, int64(n))
	case int64:
		return Number(lang, n)
	case int32:
		return Number(lang, int64(n))
	case uint:
		return Number(lang, int64(n))
	case Key:
		return Render(lang, string(n), nil)
	case Texts:
		if t, ok := n[lang]; ok {
			return t
		}
		return n[ID]
	case time.Duration:
		return n.String()
	case fmt.Stringer:
		return n.String()
	default:
		return fmt.Sprint(v)
	}
}

// Number writes n with lang's thousands separator.
func Number(lang Lang, n int64) string {
	sep := "."
	if lang == EN {
		sep = ","
	}
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Parse picks the language of an Accept-Language header: the supported
// language with the highest weight, Indonesian when none is supported.
func Parse(header string) Lang {
	best, bestQ := ID, -1.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		var l Lang
		switch primary {
		case "id", "in":
			l = ID
		case "en":
			l = EN
		default:
			continue
		}
		if q > bestQ {
			best, bestQ = l, q
		}
	}
	return best
}

type ctxKey struct{}

// WithLang returns ctx carrying lang.
func WithLang(ctx context.Context, lang Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, lang)
}

// FromContext returns the request's language, Indonesian when none is set.
func FromContext(ctx context.Context) Lang {
	if l, ok := ctx.Value(ctxKey{}).(Lang); ok {
		return l
	}
	return ID
}

// Middleware puts the language of Accept-Language into the request context
// and tells caches that answers vary by it.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Language")
		next.ServeHTTP(w, r.WithContext(WithLang(r.Context(), Parse(r.Header.Get("Accept-Language")))))
	})
}

// T renders key in the request's language.
func T(ctx context.Context, key string, kv ...any) string {
	return Render(FromContext(ctx), key, Params(kv...))
}

// Params turns name, value pairs into a parameter map; a trailing name
// without a value is ignored.
func Params(kv ...any) map[string]any {
	if len(kv) < 2 {
		return nil
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		name, ok := kv[i].(string)
		if !ok {
			name = fmt.Sprint(kv[i])
		}
		m[name] = kv[i+1]
	}
	return m
}
