package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// Entry is one validated lesson hour of a push.
type Entry struct {
	SourceStudentID int64
	Date            string // YYYY-MM-DD, as the journal sent it
	LessonHour      int
	Status          string // H S I A T, or api.AttendanceNone
	Notes           string
}

// rawBatch is a push's body: the E-Jurnal's names and ours.
type rawBatch struct {
	Token       json.RawMessage `json:"token"`
	Attendances json.RawMessage `json:"attendances"`
	Entries     json.RawMessage `json:"entries"`
}

// rawEntry is one entry before validation; every field is read leniently
// (numbers may come as numeric strings) and checked by hand, so each
// problem is named.
type rawEntry struct {
	SourceStudentID json.RawMessage `json:"source_student_id"`
	StudentID       json.RawMessage `json:"student_id"`
	Date            json.RawMessage `json:"date"`
	LessonHour      json.RawMessage `json:"lesson_hour"`
	Status          json.RawMessage `json:"status"`
	Notes           json.RawMessage `json:"notes"`
}

// badField is one problem of a refused batch.
type badField struct {
	Field string         `json:"field"`
	Code  string         `json:"code"`
	Param map[string]any `json:"params,omitempty"`
}

// batchError collects the problems of a batch: every one is counted, the
// first maxNamed are named.
type batchError struct {
	list string // "attendances" or "entries"
	// latest is the last date a push may carry (see latestDate); earliest
	// the first (the school's window of academic years; "" for none).
	latest   string
	earliest string
	fields   []badField
	entries  map[int]bool
	total    int
}

func (b *batchError) add(i int, field, key string, kv ...any) {
	b.total++
	b.entries[i] = true
	if len(b.fields) < maxNamed {
		name := fmt.Sprintf("%s[%d]", b.list, i)
		if field != "" {
			name += "." + field
		}
		b.fields = append(b.fields, badField{Field: name, Code: key, Param: apperr.M(key, kv...).Params})
	}
}

// batchErr is a refused batch: the application error, and its bad fields
// in entry order (for the answer and the push log).
type batchErr struct {
	err    *apperr.Error
	fields []badField
}

func (e *batchErr) Error() string { return e.err.Error() }
func (e *batchErr) Unwrap() error { return e.err }

// err is the Invalid error naming the bad fields.
func (b *batchError) err() error {
	if b.total == 0 {
		return nil
	}
	f := apperr.Fields{}
	for _, bf := range b.fields {
		f[bf.Field] = apperr.Msg{Key: bf.Code, Params: bf.Param}
	}
	return &batchErr{err: &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("journal.batch_invalid",
		"entries", len(b.entries), "problems", b.total, "named", len(b.fields)), Fields: f}, fields: b.fields}
}

// parseBatch reads and validates a whole push: every entry is checked
// before anything is stored, and every problem is reported. hours is the
// school's lesson hours per day; n is the number of entries sent.
//
// fast is the body as decodeFast read it (nil: not readable that way).
func parseBatch(body []byte, hours int, earliest string, fast *PushBody) (entries []Entry, n int, err error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, 0, apperr.New(apperr.Invalid, "journal.body_empty")
	}
	if fast != nil {
		if entries, n, err, ok := parseFast(fast, hours, earliest); ok {
			return entries, n, err
		}
	}
	var rb rawBatch
	if err := json.Unmarshal(body, &rb); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, 0, apperr.New(apperr.Invalid, "journal.json_syntax", "offset", syn.Offset)
		}
		return nil, 0, apperr.New(apperr.Invalid, "journal.json_not_object")
	}
	list, raw := "attendances", rb.Attendances
	switch {
	case isNull(rb.Attendances) && isNull(rb.Entries):
		return nil, 0, apperr.New(apperr.Invalid, "journal.entries_missing").WithField("attendances", "journal.entries_missing")
	case !isNull(rb.Attendances) && !isNull(rb.Entries):
		return nil, 0, apperr.New(apperr.Invalid, "journal.entries_both").WithField("entries", "journal.entries_both")
	case isNull(rb.Attendances):
		list, raw = "entries", rb.Entries
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, 0, apperr.New(apperr.Invalid, "journal.entries_not_list", "list", list).WithField(list, "journal.entries_not_list", "list", list)
	}
	if len(items) > MaxEntries {
		return nil, len(items), apperr.New(apperr.TooLarge, "journal.too_many_entries", "count", len(items), "max", MaxEntries)
	}
	be := &batchError{list: list, entries: map[int]bool{}, latest: latestDate(now()), earliest: earliest}
	out := make([]Entry, 0, len(items))
	for i, it := range items {
		var re rawEntry
		if t := bytes.TrimSpace(it); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &re) != nil {
			be.add(i, "", "journal.entry.not_object")
			continue
		}
		e, ok := parseEntry(i, re.lax(), hours, be)
		if ok {
			out = append(out, e)
		}
	}
	if err := be.err(); err != nil {
		return nil, len(items), err
	}
	return out, len(items), nil
}

func parseEntry(i int, re PushEntry, hours int, be *batchError) (Entry, bool) {
	var e Entry
	before := be.total
	idField, id := "source_student_id", re.SourceStudentID
	if !id.set && re.StudentID.set {
		idField, id = "student_id", re.StudentID
	}
	switch {
	case !id.set:
		be.add(i, "source_student_id", "journal.entry.student_missing")
	case !id.ok || id.n <= 0:
		be.add(i, idField, "journal.entry.student_invalid")
	default:
		e.SourceStudentID = id.n
	}
	switch d := re.Date; {
	case !d.set:
		be.add(i, "date", "journal.entry.date_missing")
	case !d.ok || !validDate(d.s):
		be.add(i, "date", "journal.entry.date_invalid")
	case be.latest != "" && d.s > be.latest:
		be.add(i, "date", "journal.entry.date_future", "latest", be.latest)
	case be.earliest != "" && d.s < be.earliest:
		be.add(i, "date", "journal.entry.date_too_old", "earliest", be.earliest)
	default:
		e.Date = d.s
	}
	switch h := re.LessonHour; {
	case !h.set:
		be.add(i, "lesson_hour", "journal.entry.hour_missing", "max", hours)
	case !h.ok || h.n < 1 || h.n > int64(hours):
		be.add(i, "lesson_hour", "journal.entry.hour_range", "max", hours)
	default:
		e.LessonHour = int(h.n)
	}
	switch st := re.Status; {
	case !st.set:
		be.add(i, "status", "journal.entry.status_missing")
	case !st.ok:
		be.add(i, "status", "journal.entry.status_invalid")
	default:
		code, ok := attendance.ParseStatus(st.s)
		if !ok {
			be.add(i, "status", "journal.entry.status_invalid")
		}
		e.Status = code
	}
	if re.Notes.set {
		switch n, ok := re.Notes.s, re.Notes.ok; {
		case !ok:
			be.add(i, "notes", "journal.entry.notes_invalid")
		case utf8.RuneCountInString(n) > MaxNotes:
			be.add(i, "notes", "journal.entry.notes_long", "max", MaxNotes)
		case badText(n):
			be.add(i, "notes", "journal.entry.notes_bad_text")
		default:
			e.Notes = strings.TrimSpace(n)
		}
	}
	return e, be.total == before
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// intValue reads a whole number sent as a JSON number or a numeric string
// ("3"); fractions, exponents and anything else are not.
func intValue(raw json.RawMessage) (int64, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) != nil {
			return 0, false
		}
		t = []byte(strings.TrimSpace(s))
	}
	n, err := strconv.ParseInt(string(t), 10, 64)
	return n, err == nil
}

func stringValue(raw json.RawMessage) (string, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(t, &s) != nil {
		return "", false
	}
	return strings.TrimSpace(s), true
}

// validDate accepts a real calendar date written YYYY-MM-DD, years
// 2000-2099.
func validDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	d, err := time.Parse(time.DateOnly, s)
	return err == nil && d.Year() >= 2000 && d.Year() <= 2099
}

// badText: not valid UTF-8, or a control character other than tab and
// line breaks (PostgreSQL refuses NUL; nobody types the rest).
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

// now is the clock (tests set it).
var now = time.Now

// latestDate is the last school day a push may carry (YYYY-MM-DD: the
// push's hot path compares dates as text): today in Jakarta, read ten
// minutes ahead so a journal whose clock runs a little fast is not refused
// just after midnight. Attendance of a day that has not come
// yet would create violations and letters for it.
func latestDate(t time.Time) string {
	return schoolday.Of(t.Add(10 * time.Minute))
}
