package studentsync

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"

	"github.com/tatib/tatib/server/internal/locale"
)

// Message is a message for people kept as a catalogue key and its
// parameters rather than as text, so a sync's outcome stored today is read
// tomorrow in the reader's language.
type Message struct {
	Key    string       `json:"key"`
	Params StoredParams `json:"params,omitempty"`
}

// msg returns the message key with parameters as name, value pairs.
func msg(key string, kv ...any) Message {
	return Message{Key: key, Params: StoredParams(locale.Params(kv...))}
}

// Render writes m in lang. A source message about a page after the first
// says which page.
func (m Message) Render(lang locale.Lang) string {
	text := locale.Render(lang, m.Key, m.Params)
	if p, ok := m.Params["page"].(int64); ok && p > 1 {
		return locale.Render(lang, "school.source.on_page", map[string]any{"page": p}) + " " + text
	}
	if p, ok := m.Params["page"].(int); ok && p > 1 {
		return locale.Render(lang, "school.source.on_page", map[string]any{"page": p}) + " " + text
	}
	return text
}

// StoredParams are a message's parameters as they survive a trip through
// JSON: whole numbers come back as integers (so they are written with the
// language's thousands separator) and catalogue keys as keys.
type StoredParams map[string]any

type storedKey struct {
	Key string `json:"key"`
}

// MarshalJSON writes a locale.Key parameter as {"key": …}.
func (p StoredParams) MarshalJSON() ([]byte, error) {
	if p == nil {
		return []byte("{}"), nil
	}
	out := make(map[string]any, len(p))
	for k, v := range p {
		if key, ok := v.(locale.Key); ok {
			out[k] = storedKey{Key: string(key)}
			continue
		}
		out[k] = v
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (p *StoredParams) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := StoredParams{}
	for k, v := range raw {
		switch x := v.(type) {
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				out[k] = int64(x)
			} else {
				out[k] = x
			}
		case map[string]any:
			if s, ok := x["key"].(string); ok {
				out[k] = locale.Key(s)
			}
		default:
			out[k] = x
		}
	}
	*p = out
	return nil
}

// Scan reads a jsonb column.
func (p *StoredParams) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*p = nil
		return nil
	case []byte:
		return p.UnmarshalJSON(v)
	case string:
		return p.UnmarshalJSON([]byte(v))
	}
	return fmt.Errorf("school: params: cannot scan %T", src)
}

// Value writes a jsonb column.
func (p StoredParams) Value() (driver.Value, error) {
	b, err := p.MarshalJSON()
	return string(b), err
}
