package journal

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// The fast path of a push. A well-formed body (every entry an object) is
// decoded once into typed lenient values; only when that fails does
// parseBatch take the slow path, which walks the body piece by piece to
// name every problem. Both validate through parseEntry, so they accept and
// refuse the same entries. The benchmark showed the slow path alone was
// about half of a school day's push.

// laxInt is a whole number sent as a JSON number or a numeric string
// ("3"); fractions, exponents and anything else are set but not ok.
type laxInt struct {
	n       int64
	set, ok bool
}

func (v *laxInt) UnmarshalJSON(b []byte) error {
	*v = laxInt{}
	if string(b) == "null" {
		return nil
	}
	v.set = true
	t := b
	if len(t) > 0 && t[0] == '"' {
		s, ok := unquote(t)
		if !ok {
			return nil
		}
		t = []byte(strings.TrimSpace(s))
	}
	n, err := strconv.ParseInt(string(t), 10, 64)
	v.n, v.ok = n, err == nil
	return nil
}

// JSONSchema is a laxInt in the OpenAPI document (invopop/jsonschema asks):
// a number or a string.
func (laxInt) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "integer"}, {Type: "string"}}}
}

// laxString is a JSON string, trimmed; anything else is set but not ok.
type laxString struct {
	s       string
	set, ok bool
}

func (v *laxString) UnmarshalJSON(b []byte) error {
	*v = laxString{}
	if string(b) == "null" {
		return nil
	}
	v.set = true
	if len(b) == 0 || b[0] != '"' {
		return nil
	}
	s, ok := unquote(b)
	if ok {
		v.s, v.ok = strings.TrimSpace(s), true
	}
	return nil
}

// JSONSchema is a laxString in the OpenAPI document: a string.
func (laxString) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }

// unquote decodes a JSON string literal the way encoding/json does; the
// common case (no escapes, valid UTF-8) needs no second decoder.
func unquote(b []byte) (string, bool) {
	if len(b) >= 2 && bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b) {
		return string(b[1 : len(b)-1]), true
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return "", false
	}
	return s, true
}

// PushEntry is one entry's fields, the E-Jurnal's names and ours. It is
// the OpenAPI document's JournalEntry (server/internal/api/schemas.go): the
// tags say what parseEntry requires and allows (MaxNotes, checked by
// TestPushBodyTags).
type PushEntry struct {
	SourceStudentID laxInt    `json:"source_student_id" jsonschema_description:"the student's id in student affairs (or student_id)"`
	StudentID       laxInt    `json:"student_id"`
	Date            laxString `json:"date" jsonschema:"required,format=date"`
	LessonHour      laxInt    `json:"lesson_hour" jsonschema:"required" jsonschema_description:"1..lesson hours per day (school profile)"`
	Status          laxString `json:"status" jsonschema:"required,example=hadir,example=sakit,example=izin,example=alpha,example=terlambat,example=H,example=belum"`
	Notes           laxString `json:"notes" jsonschema:"nullable,maxLength=500"`
}

// lax reads the raw pieces of the slow path into the same values.
func (re rawEntry) lax() PushEntry {
	var e PushEntry
	set := func(raw json.RawMessage, v json.Unmarshaler) {
		if t := bytes.TrimSpace(raw); len(t) > 0 {
			_ = v.UnmarshalJSON(t)
		}
	}
	set(re.SourceStudentID, &e.SourceStudentID)
	set(re.StudentID, &e.StudentID)
	set(re.Date, &e.Date)
	set(re.LessonHour, &e.LessonHour)
	set(re.Status, &e.Status)
	set(re.Notes, &e.Notes)
	return e
}

// PushBody is a push's body in one typed decode, the OpenAPI document's
// JournalPush (the limit is MaxEntries, checked by TestPushBodyTags).
type PushBody struct {
	Token       laxString    `json:"token" jsonschema_description:"the journal token, when no header or query parameter carries it"`
	Attendances *[]PushEntry `json:"attendances" jsonschema:"maxItems=50000"`
	Entries     *[]PushEntry `json:"entries" jsonschema:"maxItems=50000"`
}

// decodeFast decodes a body in one pass; ok is false when the body needs
// the slow path (bad JSON, an entry that is not an object).
func decodeFast(body []byte) (lb PushBody, ok bool) {
	if lb, ok := scanBatch(body); ok {
		return lb, true
	}
	lb = PushBody{}
	return lb, json.Unmarshal(body, &lb) == nil
}

// parseFast validates a body decodeFast read; ok is false when it needs
// the slow path after all (both lists or none, too many entries, an entry
// with no field at all, which may have been null).
func parseFast(lb *PushBody, hours int, earliest string) (entries []Entry, n int, err error, ok bool) {
	list, items := "attendances", lb.Attendances
	switch {
	case (lb.Attendances == nil) == (lb.Entries == nil):
		return nil, 0, nil, false
	case lb.Attendances == nil:
		list, items = "entries", lb.Entries
	}
	if len(*items) > MaxEntries {
		return nil, 0, nil, false
	}
	be := &batchError{list: list, entries: map[int]bool{}, latest: latestDate(now()), earliest: earliest}
	out := make([]Entry, 0, len(*items))
	for i, re := range *items {
		if !re.SourceStudentID.set && !re.StudentID.set && !re.Date.set && !re.LessonHour.set && !re.Status.set && !re.Notes.set {
			return nil, 0, nil, false
		}
		if e, good := parseEntry(i, re, hours, be); good {
			out = append(out, e)
		}
	}
	if err := be.err(); err != nil {
		return nil, len(*items), err, true
	}
	return out, len(*items), nil, true
}

// bodyToken is the token field of a body ("" when absent, not a string or
// unreadable), read without decoding the entries.
func bodyToken(body []byte) string {
	var b struct {
		Token laxString `json:"token"`
	}
	if json.Unmarshal(body, &b) != nil || !b.Token.ok {
		return ""
	}
	return b.Token.s
}
